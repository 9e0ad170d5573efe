import type { CodifyEventBody } from '../../runs/events.js';

/** The evaluation's running totals, turned into eval-progress events. */
export class EvalProgress {
  done = 0;
  running = 0;
  tokens = 0;
  costUsd = 0;
  /**
   * Live workers, with a queue (they, not `parallel`, decide how many runs go at once);
   * undefined when this process runs the runs.
   */
  workers: number | undefined;
  private readonly durations: number[] = [];

  constructor(
    readonly total: number,
    readonly parallel: number,
    private readonly startedAt: number,
    private readonly now: () => number = Date.now,
  ) {}

  runFinished(durationMs: number): void {
    this.durations.push(durationMs);
  }

  event(): Extract<CodifyEventBody, { type: 'eval-progress' }> {
    const left = this.total - this.done - this.running;
    const mean =
      this.durations.length === 0
        ? null
        : this.durations.reduce((sum, value) => sum + value, 0) / this.durations.length;
    // Runs still going are counted as half done on average.
    const remainingRuns = left + this.running / 2;
    // With a queue, each live worker takes one run at a time (at least those seen running).
    const atOnce =
      this.workers === undefined ? this.parallel : Math.max(this.workers, this.running);
    return {
      type: 'eval-progress',
      done: this.done,
      running: this.running,
      left,
      elapsedMs: this.now() - this.startedAt,
      tokens: this.tokens,
      costUsd: this.costUsd,
      ...(this.workers === undefined ? {} : { workers: this.workers }),
      remainingMs:
        mean === null
          ? null
          : // No worker alive: nothing is going on, so no pace to give.
            atOnce === 0
            ? null
            : Math.round((mean * remainingRuns) / Math.max(1, atOnce)),
    };
  }
}
