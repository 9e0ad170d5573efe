import { Queue } from 'bullmq';
import {
  jobIdFor,
  queueConnection,
  queueName,
  type RunJob,
  type RunJobResult,
} from './queue-connection.js';
import type { Dispatch } from './run-evaluation.js';
import { stateOf } from './run-state.js';
import { readEvents } from '../runs/read-events.js';
import { totalsOf } from '../runs/run-totals.js';

export interface QueueDispatchOptions {
  url: string;
  /** How often to look at the jobs (default 1 s). */
  pollMs?: number;
  /** Tries per run when its job fails (default 2); a worker that dies is retried by BullMQ's stall check. */
  attempts?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the combinations on `codify worker` processes through BullMQ: one job per run, its
 * id fixed by the evaluation folder and key; waits until every job has completed or
 * failed for good (or the signal stops the wait), reporting each run's start and end in
 * the evaluation's log as the workers' run folders show them. The evaluation folder must
 * be a folder the workers share.
 */
export function queueDispatch(options: QueueDispatchOptions): Dispatch {
  return async (context) => {
    const { unfinished, log, progress } = context;
    const queue = new Queue<RunJob, RunJobResult>(queueName, {
      connection: queueConnection(options.url),
    });
    try {
      const evalDir = context.options.evalDir;
      const ids = new Map(unfinished.map((run) => [run.key, jobIdFor(evalDir, run.key)]));
      await queue.addBulk(
        unfinished.map((run) => ({
          name: run.key,
          data: { suiteFile: context.options.suite.file, evalDir, key: run.key },
          opts: {
            jobId: ids.get(run.key) ?? '',
            attempts: options.attempts ?? 2,
            removeOnComplete: true,
            removeOnFail: true,
          },
        })),
      );
      const pending = new Map(unfinished.map((run) => [run.key, run]));
      const running = new Set<string>();
      const began = new Map<string, number>();
      while (pending.size > 0 && context.options.signal?.aborted !== true) {
        await sleep(options.pollMs ?? 1000);
        for (const [key, run] of pending) {
          const job = await queue.getJob(ids.get(key) ?? '');
          const state = job === undefined ? undefined : await job.getState();
          const folder = stateOf(run);
          if (!running.has(key) && (state === 'active' || folder.kind === 'interrupted')) {
            running.add(key);
            began.set(key, Date.now());
            progress.running += 1;
            log.emit({
              type: 'eval-run-start',
              key,
              item: run.item.name,
              strategy: run.strategy,
              model: run.model.name,
              trial: run.trial,
              resumed: context.states.get(key)?.kind === 'interrupted',
              runDir: folder.kind === 'new' ? run.root : folder.runDir,
            });
            log.emit(progress.event());
          }
          // Removed on completion: a job that is gone has ended (or was never added by this
          // coordinator because an earlier one's is still there: then the folder decides).
          const ended =
            job === undefined
              ? folder.kind === 'finished'
              : state === 'completed' || state === 'failed';
          if (!ended) continue;
          pending.delete(key);
          if (running.delete(key)) progress.running -= 1;
          progress.done += 1;
          const durationMs = Date.now() - (began.get(key) ?? Date.now());
          progress.runFinished(durationMs);
          const finished = stateOf(run);
          // The job is gone once completed; the run folder has what it spent.
          if (finished.kind !== 'new') {
            const totals = totalsOf(readEvents(finished.runDir).events);
            progress.tokens += totals.inputTokens + totals.outputTokens;
            progress.costUsd += totals.costUsd;
          }
          log.emit({
            type: 'eval-run-end',
            key,
            status: finished.kind === 'finished' ? finished.status : 'failed',
            ...(finished.kind === 'new' ? {} : { runDir: finished.runDir }),
            ...(state === 'failed' ? { message: job?.failedReason ?? 'the job failed' } : {}),
            durationMs,
          });
          log.emit(progress.event());
        }
      }
      return unfinished.length;
    } finally {
      await queue.close();
    }
  };
}
