import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLogWriter } from '../../src/runs/event-log-writer.js';
import { readEvents } from '../../src/runs/read-events.js';

const helper = join(import.meta.dirname, 'append-events-helper.ts');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function temporaryRunFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'codify-log-'));
  folders.push(folder);
  return folder;
}

function appendFromChild(path: string, writer: string, count: number, maxBytes: number) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', helper, path, writer, String(count), String(maxBytes)],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}: ${errors}`)),
    );
  });
}

function messagesByWriter(folder: string): Map<string, number[]> {
  const byWriter = new Map<string, number[]>();
  for (const event of readEvents(folder).events) {
    if (event.type !== 'log') throw new Error(`unexpected ${event.type}`);
    const [writer = '', index = '', padding = ''] = event.message.split(':');
    expect(padding).toMatch(/^x*$/);
    byWriter.set(writer, [...(byWriter.get(writer) ?? []), Number(index)]);
  }
  return byWriter;
}

describe('events.jsonl', () => {
  it('keeps every line whole when several processes append at once', async () => {
    const folder = temporaryRunFolder();
    const path = join(folder, 'events.jsonl');
    const writers = ['a', 'b', 'c', 'd'];
    await Promise.all(writers.map((name) => appendFromChild(path, name, 400, 150_000)));

    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(1600);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const contents = readEvents(folder);
    expect(contents.problems).toEqual([]);
    const byWriter = messagesByWriter(folder);
    for (const name of writers) {
      // Each writer's own events stay in its order.
      expect(byWriter.get(name)).toEqual(Array.from({ length: 400 }, (_, index) => index));
    }
  });

  it('never shows a reader a torn line while a writer is writing', async () => {
    const folder = temporaryRunFolder();
    const path = join(folder, 'events.jsonl');
    writeFileSync(path, '');
    const writing = appendFromChild(path, 'w', 1500, 300_000);
    let done = false;
    void writing.finally(() => (done = true)).catch(() => undefined);
    let reads = 0;
    let previousCount = 0;
    while (!done) {
      const contents = readEvents(folder);
      expect(contents.problems).toEqual([]);
      expect(contents.events.length).toBeGreaterThanOrEqual(previousCount);
      previousCount = contents.events.length;
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await writing;
    expect(reads).toBeGreaterThan(3);
    const final = readEvents(folder);
    expect(final.events).toHaveLength(1500);
    expect(final.partialBytes).toBe(0);
  });

  it('ignores a half-written last line and reports a corrupt middle line by number', () => {
    const folder = temporaryRunFolder();
    const path = join(folder, 'events.jsonl');
    const writer = EventLogWriter.open(path);
    const time = new Date().toISOString();
    writer.append({ type: 'step-start', step: 1, seq: 1, time });
    writer.close();
    appendFileSync(path, '{"type":"step-end", this is not json\n');
    appendFileSync(path, `${JSON.stringify({ type: 'step-start', step: 2, seq: 3, time })}\n`);
    appendFileSync(path, '{"type":"llm-end","callId":4,"text":"half of an ev');

    const contents = readEvents(folder);
    expect(contents.events.map((event) => event.seq)).toEqual([1, 3]);
    expect(contents.problems).toHaveLength(1);
    expect(contents.problems[0]?.line).toBe(2);
    expect(contents.problems[0]?.message).toMatch(/not JSON/);
    expect(contents.partialBytes).toBe('{"type":"llm-end","callId":4,"text":"half of an ev'.length);
  });

  it('cuts a torn last line when re-opened, so the next event starts its own line', () => {
    const folder = temporaryRunFolder();
    const path = join(folder, 'events.jsonl');
    const time = new Date().toISOString();
    writeFileSync(
      path,
      `${JSON.stringify({ type: 'step-start', step: 1, seq: 1, time })}\n{"type":"st`,
    );
    const { writer, droppedBytes } = EventLogWriter.reopen(path);
    expect(droppedBytes).toBe('{"type":"st'.length);
    writer.append({ type: 'step-start', step: 2, seq: 2, time });
    writer.close();
    const contents = readEvents(folder);
    expect(contents.problems).toEqual([]);
    expect(contents.events.map((event) => event.seq)).toEqual([1, 2]);
  });
});
