import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLogPath } from '../../src/runs/event-log-file.js';
import { readEvents } from '../../src/runs/read-events.js';
import { createRun, type Run } from '../../src/runs/run.js';
import { totalsOf } from '../../src/runs/run-totals.js';
import type { RunDetail } from '../../src/server/api-types.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet } from './http-client.js';

/** A log of ~20 MB: 400 events of 50 KB, as a long run's model calls make it. */
const bigEvents = 400;
const eventBytes = 50_000;

let root = '';
let ui: UiServer;
let run: Run;
let auth: Record<string, string> = {};
const streams: ServerResponse[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'codify-ui-large-'));
  run = createRun({ root, mode: 'implement', name: 'large', argv: [] });
  for (let index = 0; index < bigEvents; index += 1) {
    run.emit({ type: 'log', level: 'info', message: `${index} ${'y'.repeat(eventBytes)}` });
  }
  run.close('completed');
  ui = await startUiServer({ root, port: 0, appDirectory: join(root, 'no-app'), pollMs: 20 });
  // The same response objects the server writes to, to see what it holds for each client.
  ui.server.on('request', (incoming, response: ServerResponse) => {
    if (incoming.url?.endsWith('/events') === true) streams.push(response);
  });
  auth = { authorization: `token ${ui.token}` };
});

afterAll(async () => {
  await ui.close();
  rmSync(root, { recursive: true, force: true });
});

const pause = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

describe('a client that reads the event stream slowly', () => {
  it('holds back the reading of the log instead of the server buffering it', async () => {
    const logBytes = statSync(eventLogPath(run.dir)).size;
    expect(logBytes).toBeGreaterThan(bigEvents * eventBytes);
    const ids: number[] = [];
    let ended = false;
    const client = request({
      host: '127.0.0.1',
      port: ui.port,
      path: `/api/runs/${run.id}/events`,
      headers: auth,
    });
    const opened = new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      client.on('response', resolve);
      client.on('error', reject);
    });
    client.end();
    const response = await opened;
    // Reads nothing for a while: the socket and the kernel's buffers fill up.
    response.pause();
    const stream = streams.at(-1);
    expect(stream).toBeDefined();
    let queuedPeak = 0;
    for (let sample = 0; sample < 40; sample += 1) {
      queuedPeak = Math.max(queuedPeak, stream?.writableLength ?? 0);
      await pause(25);
    }
    // Queued in the server for this client: about one event and the socket's high-water
    // mark, not the 20 MB log (which the server used to write all at once).
    expect(queuedPeak).toBeGreaterThan(0);
    expect(queuedPeak).toBeLessThan(4 * eventBytes);
    // Then it reads, and gets every event, in order, once.
    response.setEncoding('utf8');
    let tail = '';
    response.on('data', (chunk: string) => {
      // Each chunk with the end of the one before, for an id line split between two chunks.
      const text = tail + chunk;
      const lastBreak = text.lastIndexOf('\n');
      for (const match of text.slice(0, lastBreak + 1).matchAll(/^id: (\d+)$/gm)) {
        ids.push(Number(match[1]));
      }
      tail = text.slice(lastBreak + 1);
      if (text.includes('"type":"run-end"')) {
        ended = true;
        client.destroy();
      }
    });
    response.resume();
    for (let waited = 0; !ended && waited < 200; waited += 1) await pause(50);
    expect(ids).toEqual(Array.from({ length: bigEvents + 2 }, (_, index) => index + 1));
  });
});

describe('GET /api/runs/:id on a large log', () => {
  it('sends the log a page at a time, each page continuing where the last stopped', async () => {
    const seqs: number[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const response = await rawGet(
        ui.port,
        `/api/runs/${run.id}${after === undefined ? '' : `?after=${after}`}`,
        auth,
      );
      expect(response.status, response.body).toBe(200);
      // A page is about 1 MB of the log, never the whole 20 MB.
      expect(response.body.length).toBeLessThan(1.2 * 1024 * 1024);
      const detail = JSON.parse(response.body) as RunDetail;
      expect(detail.summary.status).toBe('completed');
      seqs.push(...detail.events.map((event) => event.seq));
      after = detail.next;
      pages += 1;
    } while (after !== undefined && pages < 100);
    expect(pages).toBeGreaterThan(10);
    expect(seqs).toEqual(Array.from({ length: bigEvents + 2 }, (_, index) => index + 1));
  });

  it('refuses a cursor it did not give', async () => {
    const response = await rawGet(ui.port, `/api/runs/${run.id}?after=../x`, auth);
    expect(response.status).toBe(400);
  });

  it('sums up a live run read a chunk at a time, as if read whole', async () => {
    const live = createRun({ root, mode: 'implement', name: 'large and live', argv: [] });
    for (let step = 1; step <= 30; step += 1) {
      live.emit({ type: 'step-start', step });
      live.emit({
        type: 'llm-end',
        callId: step,
        role: 'planner',
        model: 'scripted:a',
        // Lines of odd lengths, so they straddle the reader's chunk boundaries.
        messages: [{ role: 'user', content: 'p'.repeat(37_000 + step * 101) }],
        text: 'Action: List Files',
        usage: { inputTokens: 1000 + step, outputTokens: 10, cachedInputTokens: 0 },
        costUsd: 0.001,
        latencyMs: 5,
        attempts: 1,
      });
      live.emit({ type: 'step-end', step, action: 'List Files' });
    }
    try {
      const response = await rawGet(
        ui.port,
        `/api/runs/${encodeURIComponent(live.id)}/summary`,
        auth,
      );
      expect(response.status, response.body).toBe(200);
      const { events } = readEvents(live.dir);
      expect(JSON.parse(response.body)).toMatchObject({
        status: 'running',
        name: 'large and live',
        lastEventAt: events.at(-1)?.time,
        totals: totalsOf(events),
      });
    } finally {
      live.close('completed');
    }
  });

  it('answers /summary with the summary alone', async () => {
    const response = await rawGet(ui.port, `/api/runs/${run.id}/summary`, auth);
    expect(response.status).toBe(200);
    expect(response.body.length).toBeLessThan(2000);
    expect(JSON.parse(response.body)).toMatchObject({ id: run.id, status: 'completed' });
  });
});
