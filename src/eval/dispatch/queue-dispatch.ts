import { Queue } from 'bullmq';
import {
  jobIdFor,
  queueConnection,
  queueName,
  type ResultsTransport,
  type RunJob,
  type RunJobResult,
} from './queue-connection.js';
import { defaultMaxResultBytes, unpackRoot } from './run-archive.js';
import type { Dispatch } from '../run-evaluation.js';
import { stateOf } from './run-state.js';
import { readEvents } from '../../runs/read-events.js';
import { totalsOf } from '../../runs/run-totals.js';

export interface QueueDispatchOptions {
  url: string;
  /** How often to look at the jobs (default 1 s). */
  pollMs?: number;
  /** Tries per run when its job fails (default 2); a worker that dies is retried by BullMQ's stall check. */
  attempts?: number;
  /** `shared` (default): workers write into the evaluation folder; `queue`: they send the run folders back in the job's result. */
  results?: ResultsTransport;
  /** With `queue`: the cap on one run's compressed folders (default 32 MB). */
  maxResultBytes?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the combinations on `codify worker` processes through BullMQ: one job per run, its
 * id fixed by the evaluation folder and key; waits until every job has completed or
 * failed for good (or the signal stops the wait), reporting each run's start and end in
 * the evaluation's log as the workers' run folders show them. With `results: 'shared'` the
 * evaluation folder must be a folder the workers share; with `'queue'` each run's folders
 * come back compressed in its job's result and are unpacked here.
 */
export function queueDispatch(options: QueueDispatchOptions): Dispatch {
  return async (context) => {
    const { unfinished, log, progress } = context;
    const queue = new Queue<RunJob, RunJobResult>(queueName, {
      connection: queueConnection(options.url),
    });
    try {
      const evalDir = context.options.evalDir;
      const viaQueue = options.results === 'queue';
      const ids = new Map(unfinished.map((run) => [run.key, jobIdFor(evalDir, run.key)]));
      // A job that failed for good under an earlier coordinator is tried again now.
      for (const id of ids.values()) {
        const earlier = await queue.getJob(id);
        if (earlier !== undefined && (await earlier.getState()) === 'failed')
          await earlier.remove();
      }
      await queue.addBulk(
        unfinished.map((run) => ({
          name: run.key,
          data: {
            suiteFile: context.options.suite.file,
            evalDir,
            key: run.key,
            ...(viaQueue
              ? {
                  results: 'queue' as const,
                  maxResultBytes: options.maxResultBytes ?? defaultMaxResultBytes,
                }
              : {}),
          },
          opts: {
            jobId: ids.get(run.key) ?? '',
            attempts: options.attempts ?? 2,
            // A result that carries the run folders is kept until it has been unpacked here.
            removeOnComplete: !viaQueue,
            // Kept until seen here: a job gone could not tell a failure from a success.
            removeOnFail: false,
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
          // The job was read before its state: one that failed in between holds no reason
          // yet in that copy, so the reason is read again.
          const failedReason =
            state === 'failed'
              ? (job?.failedReason ??
                (await queue.getJob(ids.get(key) ?? ''))?.failedReason ??
                'the job failed')
              : undefined;
          if (state === 'failed') await job?.remove();
          let unpackProblem: string | undefined;
          if (viaQueue && job !== undefined && state === 'completed') {
            const archive = job.returnvalue.archive;
            try {
              if (archive !== undefined) await unpackRoot(archive, run.root, evalDir);
              await job.remove();
            } catch (error) {
              unpackProblem = `could not unpack the run folders: ${error instanceof Error ? error.message : String(error)}`;
            }
          }
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
            ...(failedReason === undefined ? {} : { message: failedReason }),
            ...(unpackProblem === undefined ? {} : { message: unpackProblem }),
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
