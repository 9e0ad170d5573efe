import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodifyEvent } from '../../src/runs/events.js';
import { followEvents } from '../../src/runs/follow-events.js';
import { listRuns } from '../../src/runs/list-runs.js';
import { createRun } from '../../src/runs/run.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function temporaryRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'codify-list-'));
  roots.push(root);
  return root;
}

const llmEnd = (callId: number, costUsd: number | null, inputTokens: number) => ({
  type: 'llm-end' as const,
  callId,
  role: 'worker' as const,
  model: 'ollama:qwen',
  messages: [],
  text: 'x'.repeat(100_000),
  usage: { inputTokens, outputTokens: 50, cachedInputTokens: 0 },
  costUsd,
  latencyMs: 10,
  attempts: 1,
});

describe('listRuns', () => {
  it('summarizes finished, running and killed runs made by createRun', async () => {
    const root = temporaryRoot();
    const done = createRun({ root, mode: 'implement', name: 'done', argv: [] });
    done.emit({ type: 'step-start', step: 1 });
    done.emit(llmEnd(1, 0.5, 1000));
    done.emit({ type: 'step-end', step: 1, action: 'List Files' });
    done.emit(llmEnd(2, null, 2000));
    done.emit({ type: 'step-end', step: 2, action: 'Final Answer' });
    done.close('completed');

    const live = createRun({ root, mode: 'paper', name: 'live', argv: [] });
    live.emit(llmEnd(1, 0.25, 300));

    // A run whose writer has exited without run-end: a child process writes run-start and quits.
    const killedDir = join(root, '20200101-000000-dead-abcdef');
    mkdirSync(killedDir);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10)']);
    const childPid = child.pid ?? -1;
    await new Promise((resolve) => child.on('exit', resolve));
    const time = '2020-01-01T00:00:00.000Z';
    writeFileSync(
      join(killedDir, 'events.jsonl'),
      [
        {
          type: 'run-start',
          runId: 'dead',
          mode: 'explore',
          name: 'dead',
          argv: [],
          models: {},
          pid: childPid,
          host: hostname(),
          seq: 1,
          time,
        },
        { type: 'step-end', step: 1, action: 'Reflection', seq: 2, time },
      ]
        .map((event) => `${JSON.stringify(event)}\n`)
        .join('') + '{"type":"step-end","st',
    );

    const summaries = listRuns(root);
    expect(summaries.map((summary) => [summary.name, summary.mode, summary.status])).toEqual([
      ['dead', 'explore', 'killed'],
      ['done', 'implement', 'completed'],
      ['live', 'paper', 'running'],
    ]);
    expect(summaries[1]?.totals).toEqual({
      steps: 2,
      llmCalls: 2,
      inputTokens: 3000,
      outputTokens: 100,
      cachedInputTokens: 0,
      costUsd: 0.5,
      unpricedCalls: 1,
    });
    expect(summaries[2]?.totals).toMatchObject({ llmCalls: 1, costUsd: 0.25, inputTokens: 300 });
    expect(summaries[0]?.totals.steps).toBe(1);
    live.close('stopped', 'test over');
    expect(listRuns(root)[2]?.status).toBe('stopped');
  });

  it('reads only the two ends of a finished log', () => {
    const root = temporaryRoot();
    const run = createRun({ root, mode: 'implement', name: 'ends', argv: [] });
    run.emit({ type: 'step-end', step: 1, action: 'List Files' });
    run.close('completed');
    // Corrupting the middle changes nothing: the totals come from run-end.
    const path = join(run.dir, 'events.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(1, 1, 'garbage that is not json');
    writeFileSync(path, lines.join('\n'));
    expect(listRuns(root)[0]).toMatchObject({ status: 'completed', totals: { steps: 1 } });
  });

  it('returns nothing for a missing root', () => {
    expect(listRuns(join(tmpdir(), 'codify-no-such-root-xyz'))).toEqual([]);
  });
});

describe('followEvents', () => {
  it('delivers existing and new events, whole, and stops at run-end', async () => {
    const root = temporaryRoot();
    const run = createRun({ root, mode: 'implement', name: 'follow', argv: [] });
    run.emit({ type: 'step-start', step: 1 });
    const seen: CodifyEvent[] = [];
    const following = followEvents(run.dir, (event) => seen.push(event), undefined, {
      pollMs: 10,
      untilRunEnd: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Half a line first, then its rest: the follower must wait for the newline.
    const path = join(run.dir, 'events.jsonl');
    const line = JSON.stringify({
      type: 'step-end',
      step: 1,
      action: 'X',
      seq: 99,
      time: new Date().toISOString(),
    });
    appendFileSync(path, line.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.map((event) => event.seq)).toEqual([1, 2]);
    appendFileSync(path, `${line.slice(20)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.map((event) => event.seq)).toEqual([1, 2, 99]);
    run.close('completed');
    await following;
    expect(seen.at(-1)?.type).toBe('run-end');
  });

  it('stops when its signal aborts', async () => {
    const root = temporaryRoot();
    const controller = new AbortController();
    const following = followEvents(join(root, 'not-yet'), () => undefined, controller.signal, {
      pollMs: 5000,
    });
    controller.abort();
    await expect(following).resolves.toBeUndefined();
  });
});
