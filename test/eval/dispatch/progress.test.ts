import { describe, expect, it } from 'vitest';
import { EvalProgress } from '../../../src/eval/dispatch/progress.js';

describe('the evaluation progress', () => {
  it('estimates the time left over the runs at a time: --parallel here, the live workers with a queue', () => {
    const local = new EvalProgress(10, 1, 0, () => 60_000);
    local.done = 2;
    local.runFinished(10_000);
    local.runFinished(30_000);
    // 8 runs left at 20 s each, one at a time.
    expect(local.event()).toMatchObject({ left: 8, remainingMs: 160_000 });
    expect(local.event()).not.toHaveProperty('workers');

    const queued = new EvalProgress(10, 1, 0, () => 60_000);
    queued.done = 2;
    queued.runFinished(10_000);
    queued.runFinished(30_000);
    queued.workers = 4;
    expect(queued.event()).toMatchObject({ workers: 4, remainingMs: 40_000 });
    // No worker alive: no pace to give.
    queued.workers = 0;
    expect(queued.event()).toMatchObject({ workers: 0, remainingMs: null });
  });
});
