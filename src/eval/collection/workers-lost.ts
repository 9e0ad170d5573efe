import type { CodifyEvent } from '../../runs/events.js';

/** A queue worker that went while it held runs, and when each of them was taken again. */
export interface WorkerLoss {
  worker: string;
  /** When the coordinator noticed it gone (ISO time). */
  at: string;
  runs: { key: string; takenAgain: { worker: string; at: string; afterMs: number } | null }[];
}

/** The workers lost during an evaluation, from its own log (eval-worker-lost, eval-run-retaken). */
export function workersLost(events: readonly CodifyEvent[]): WorkerLoss[] {
  const losses: WorkerLoss[] = [];
  for (const event of events) {
    if (event.type === 'eval-worker-lost') {
      losses.push({
        worker: event.worker,
        at: event.time,
        runs: event.runs.map((key) => ({ key, takenAgain: null })),
      });
    } else if (event.type === 'eval-run-retaken') {
      const run = losses
        .filter((loss) => loss.worker === event.lostWorker)
        .flatMap((loss) => loss.runs)
        .find((held) => held.key === event.key && held.takenAgain === null);
      if (run !== undefined) {
        run.takenAgain = { worker: event.worker, at: event.time, afterMs: event.afterMs };
      }
    }
  }
  return losses;
}
