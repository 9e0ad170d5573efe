import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns } from '../../src/runs/list-runs.js';
import { stopRun } from '../../src/server/run-control.js';
import type { RunListEntry } from '../../src/server/api-types.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet } from './http-client.js';

/**
 * Steering through the API: a run started by POST is a real `codify implement` process (its
 * model answers through exchange files nobody writes, so it waits, live, until stopped).
 */
const repository = resolve(import.meta.dirname, '../..');
const task = 'test/fixtures/tasks/good-task';
let base = '';
let root = '';
let ui: UiServer;
let auth: Record<string, string> = {};

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-steer-'));
  root = join(base, 'runs');
  mkdirSync(join(base, 'empty-task'), { recursive: true });
  ui = await startUiServer({ root, port: 0, workingDirectory: repository, pollMs: 20 });
  auth = { authorization: `token ${ui.token}`, 'content-type': 'application/json' };
});

afterAll(async () => {
  // Runs this file started and a failed assertion left going are stopped, not left waiting.
  for (const run of listRuns(root)) {
    if (run.status !== 'running') continue;
    try {
      stopRun(run.dir);
    } catch {
      // written by this test process itself (it ends with it)
    }
  }
  await ui.close();
  rmSync(base, { recursive: true, force: true });
});

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = auth,
): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: ui.port, path, method: 'POST', headers },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolvePromise({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

async function statusOf(runId: string): Promise<string | undefined> {
  const response = await rawGet(ui.port, '/api/runs', auth);
  const runs = JSON.parse(response.body) as RunListEntry[];
  return runs.find((run) => run.id === runId)?.status;
}

async function waitForStatus(runId: string, wanted: string): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    if ((await statusOf(runId)) === wanted) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`run ${runId} never became ${wanted} (it is ${await statusOf(runId)})`);
}

describe('steering runs through the API', () => {
  it('refuses a POST without the token, from another origin, or not as JSON', async () => {
    const body = { mode: 'implement', task };
    expect((await post('/api/runs', body, { 'content-type': 'application/json' })).status).toBe(
      401,
    );
    const foreign = await post('/api/runs', body, { ...auth, origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const form = await post('/api/runs', 'mode=implement', {
      authorization: auth.authorization ?? '',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
  });

  it.each([
    [{ mode: 'eval', task }, 'mode must be "implement", "paper" or "explore"'],
    [{ mode: 'explore', papers: [task], run: 'top:1' }, 'run (--run) needs code (--code)'],
    [
      { mode: 'explore', papers: [task], maxSeeds: 3 },
      'maxSeeds (--max-seeds) is for experiments: give run (--run) and code (--code) too',
    ],
    [{ mode: 'implement' }, 'codify implement: task: Invalid input'],
    [{ mode: 'paper', paper: '' }, 'codify paper: paper: Too small'],
    [{ mode: 'implement', task: 'no/such/folder' }, 'does not exist on this machine'],
    [{ mode: 'implement', task, model: '--record=/tmp/x' }, 'codify implement: model: bad model'],
    [{ mode: 'implement', task, strategy: 'random' }, 'strategy (--strategy): Invalid option'],
    [{ mode: 'implement', task, maxSteps: 2.5 }, 'maxSteps (--max-steps): takes a whole number'],
    [{ mode: 'implement', task, maxCost: -1 }, 'maxCost (--max-cost): takes a number above 0'],
    [{ mode: 'implement', task, maxCostUsd: 1 }, 'unknown setting maxCostUsd'],
    ['{not json', 'not valid JSON'],
    [[1, 2], 'send a JSON object'],
  ])('answers 400 to %j', async (body, message) => {
    const response = await post('/api/runs', body);
    expect(response.status).toBe(400);
    expect((JSON.parse(response.body) as { error: string }).error).toContain(message);
  });

  it("reports the CLI's own message when it refuses to start", async () => {
    const response = await post('/api/runs', {
      mode: 'implement',
      task: join(base, 'empty-task'),
      model: 'replay:examples/recordings/yona-digits.jsonl',
    });
    expect(response.status).toBe(400);
    const { error } = JSON.parse(response.body) as { error: string };
    expect(error).toContain('stopped before starting a run');
    expect(error).toContain('methodology_description.txt');
  });

  it('starts a run, stops it, resumes it and stops it again', async () => {
    const exchange = join(base, 'exchange');
    const started = await post('/api/runs', {
      mode: 'implement',
      task,
      model: `exchange:${exchange}`,
      maxSteps: 3,
    });
    expect(started.status, started.body).toBe(202);
    const { runId } = JSON.parse(started.body) as { runId: string };
    expect(await statusOf(runId)).toBe('running');
    const detail = await rawGet(ui.port, `/api/runs/${runId}`, auth);
    expect(detail.body).toContain('"--max-steps","3"');

    const stopped = await post(`/api/runs/${runId}/stop`, {});
    expect(stopped.status).toBe(202);
    await waitForStatus(runId, 'stopped');
    const again = await post(`/api/runs/${runId}/stop`, {});
    expect(again.status).toBe(409);
    expect(again.body).toContain('not running');

    const resumed = await post(`/api/runs/${runId}/resume`, {});
    expect(resumed.status, resumed.body).toBe(202);
    expect(JSON.parse(resumed.body)).toEqual({ runId });
    expect(await statusOf(runId)).toBe('running');
    expect((await post(`/api/runs/${runId}/resume`, {})).status).toBe(409);
    expect((await post(`/api/runs/${runId}/stop`, {})).status).toBe(202);
    await waitForStatus(runId, 'stopped');
  });

  it('answers 404 for a POST route it does not have and for an unknown run', async () => {
    expect((await post('/api/runs/x/pause', {})).status).toBe(404);
    expect((await post('/api/runs/20990101-000000-none-000000/stop', {})).status).toBe(404);
  });
});
