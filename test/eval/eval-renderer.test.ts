import { describe, expect, it } from 'vitest';
import { createEvalRenderer, formatEvalProgress } from '../../src/cli/commands/eval-renderer.js';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';

let seq = 0;
const event = (body: CodifyEventBody): CodifyEvent => ({
  ...body,
  seq: ++seq,
  time: '2026-01-01T00:00:00Z',
});
const progress = (done: number, running: number, left: number, remainingMs: number | null) =>
  event({
    type: 'eval-progress',
    done,
    running,
    left,
    elapsedMs: 65_000,
    tokens: 12_345,
    costUsd: 0.5,
    remainingMs,
  });

describe('the eval renderer', () => {
  it('says done / running / left, elapsed, tokens, cost and the estimate', () => {
    const line = formatEvalProgress(
      progress(3, 2, 5, 185_000) as Extract<CodifyEvent, { type: 'eval-progress' }>,
      65_000,
    );
    expect(line).toBe(
      '3 done · 2 running · 5 left · 1m05s · 12.3k tokens · $0.5000 · about 3m05s left',
    );
  });

  it('without a TTY prints a line per run started or ended and a progress line when a run finishes', () => {
    let output = '';
    const renderer = createEvalRenderer({
      json: false,
      stream: { write: (text: string) => (output += text), isTTY: false },
    });
    renderer(progress(0, 0, 2, null));
    renderer(
      event({
        type: 'eval-run-start',
        key: 'a/agent/m/trial-1',
        item: 'a',
        strategy: 'agent',
        model: 'm',
        trial: 1,
        resumed: true,
        runDir: '/r/1',
      }),
    );
    renderer(progress(0, 1, 1, null));
    renderer(
      event({
        type: 'eval-run-end',
        key: 'a/agent/m/trial-1',
        status: 'completed',
        durationMs: 2000,
      }),
    );
    renderer(progress(1, 0, 1, 2000));
    renderer.finish();
    expect(output.split('\n').filter((line) => line !== '')).toEqual([
      '0 done · 0 running · 2 left · 1m05s · 12.3k tokens · $0.5000 · estimate after the first run',
      'resume a/agent/m/trial-1 → /r/1',
      'end a/agent/m/trial-1: completed in 2s',
      '1 done · 0 running · 1 left · 1m05s · 12.3k tokens · $0.5000 · about 2s left',
    ]);
  });

  it('with a queue: the live workers, a worker lost with its runs, each run taken again, and the failures', () => {
    let output = '';
    const renderer = createEvalRenderer({
      json: false,
      stream: { write: (text: string) => (output += text), isTTY: false },
    });
    renderer(
      event({
        type: 'eval-start',
        suite: 's.yaml',
        runs: 4,
        finished: 1,
        failed: 1,
        retried: true,
        parallel: 1,
        dispatch: 'queue',
      }),
    );
    renderer(event({ type: 'eval-worker-lost', worker: 'node-a:41', runs: ['a/agent/m/trial-2'] }));
    renderer(
      event({
        type: 'eval-run-retaken',
        key: 'a/agent/m/trial-2',
        worker: 'node-b:77',
        lostWorker: 'node-a:41',
        afterMs: 31_000,
      }),
    );
    const going = progress(2, 1, 1, 4000);
    renderer(going.type === 'eval-progress' ? { ...going, workers: 1 } : going);
    renderer(event({ type: 'eval-end', done: 3, missing: 0, failed: 1, report: 'r.md' }));
    renderer.finish();
    expect(output.split('\n').filter((line) => line !== '')).toEqual([
      "evaluation s.yaml: 4 runs, 1 already finished, 1 failed before (tried again), on the queue's workers",
      'worker node-a:41 is gone, holding a/agent/m/trial-2: back to the queue',
      'a/agent/m/trial-2 taken again by worker node-b:77, 31s after node-a:41 was lost',
      '2 done · 1 running · 1 left · 1 worker · 1m05s · 12.3k tokens · $0.5000 · about 4s left',
      'evaluation finished: 3 runs done, 0 missing, 1 failed; report: r.md',
    ]);
  });

  it('with --json prints every event as a JSON line', () => {
    let output = '';
    const renderer = createEvalRenderer({
      json: true,
      stream: { write: (text: string) => (output += text) },
    });
    const start = event({ type: 'eval-start', suite: 's.yaml', runs: 2, finished: 0, parallel: 1 });
    renderer(start);
    renderer.finish();
    expect(JSON.parse(output.trim())).toEqual(start);
  });
});
