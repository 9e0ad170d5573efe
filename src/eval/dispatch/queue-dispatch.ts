import { type Job, Queue } from 'bullmq';
import { errorMessage } from '../../errors/codify-error.js';
import { readEvents } from '../../runs/read-events.js';
import { totalsOf } from '../../runs/run-totals.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { DispatchContext, Dispatch } from './dispatch.js';
import {
  jobIdFor,
  queueConnection,
  queueName,
  type ResultsTransport,
  type RunJob,
  type RunJobResult,
} from './queue-connection.js';
import { defaultMaxResultBytes, unpackRoot } from './run-archive.js';
import { stateOf } from './run-state.js';

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

type RunQueue = Queue<RunJob, RunJobResult>;
type RunJobHandle = Job<RunJob, RunJobResult>;

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
    const queue: RunQueue = new Queue(queueName, { connection: queueConnection(options.url) });
    try {
      const ids = new Map(
        context.unfinished.map((run) => [run.key, jobIdFor(context.evalDir, run.key)]),
      );
      await enqueueRuns(queue, context, options, ids);
      const watch = new JobWatch(queue, context, options, ids);
      while (watch.pending.size > 0 && context.host.signal?.aborted !== true) {
        await sleep(options.pollMs ?? 1000);
        for (const run of [...watch.pending.values()]) await watch.look(run);
      }
      return context.unfinished.length;
    } finally {
      await queue.close();
    }
  };
}

/** One job per unfinished run; a job that failed for good under an earlier coordinator is tried again. */
async function enqueueRuns(
  queue: RunQueue,
  context: DispatchContext,
  options: QueueDispatchOptions,
  ids: Map<string, string>,
): Promise<void> {
  const viaQueue = options.results === 'queue';
  for (const id of ids.values()) {
    const earlier = await queue.getJob(id);
    if (earlier !== undefined && (await earlier.getState()) === 'failed') await earlier.remove();
  }
  await queue.addBulk(
    context.unfinished.map((run) => ({
      name: run.key,
      data: {
        suiteFile: context.suite.file,
        evalDir: context.evalDir,
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
}

/** The coordinator's view of the jobs: which have started, which have ended, in the evaluation's log. */
class JobWatch {
  readonly pending: Map<string, PlannedRun>;
  private readonly running = new Set<string>();
  private readonly began = new Map<string, number>();

  constructor(
    private readonly queue: RunQueue,
    private readonly context: DispatchContext,
    private readonly options: QueueDispatchOptions,
    private readonly ids: Map<string, string>,
  ) {
    this.pending = new Map(context.unfinished.map((run) => [run.key, run]));
  }

  /** Reports a run that has started or ended since the last look. */
  async look(run: PlannedRun): Promise<void> {
    const job = await this.queue.getJob(this.ids.get(run.key) ?? '');
    const state = job === undefined ? undefined : await job.getState();
    const folder = stateOf(run);
    if (!this.running.has(run.key) && (state === 'active' || folder.kind === 'interrupted')) {
      this.started(run, folder.kind === 'new' ? run.root : folder.runDir);
    }
    // Removed on completion: a job that is gone has ended (or was never added by this
    // coordinator because an earlier one's is still there: then the folder decides).
    const ended =
      job === undefined ? folder.kind === 'finished' : state === 'completed' || state === 'failed';
    if (ended) await this.ended(run, job, state);
  }

  private started(run: PlannedRun, runDir: string): void {
    const { evaluation, progress } = this.context;
    this.running.add(run.key);
    this.began.set(run.key, Date.now());
    progress.running += 1;
    evaluation.emit({
      type: 'eval-run-start',
      key: run.key,
      item: run.item.name,
      strategy: run.strategy,
      model: run.model.name,
      trial: run.trial,
      resumed: this.context.states.get(run.key)?.kind === 'interrupted',
      runDir,
    });
    evaluation.emit(progress.event());
  }

  private async ended(
    run: PlannedRun,
    job: RunJobHandle | undefined,
    state: string | undefined,
  ): Promise<void> {
    const { evaluation, progress } = this.context;
    this.pending.delete(run.key);
    if (this.running.delete(run.key)) progress.running -= 1;
    // The job was read before its state: one that failed in between holds no reason
    // yet in that copy, so the reason is read again.
    const failedReason =
      state === 'failed'
        ? (job?.failedReason ??
          (await this.queue.getJob(this.ids.get(run.key) ?? ''))?.failedReason ??
          'the job failed')
        : undefined;
    if (state === 'failed') await job?.remove();
    const unpackProblem =
      job !== undefined && state === 'completed' ? await this.unpack(run, job) : undefined;
    progress.done += 1;
    const durationMs = Date.now() - (this.began.get(run.key) ?? Date.now());
    progress.runFinished(durationMs);
    const finished = stateOf(run);
    // The job is gone once completed; the run folder has what it spent.
    if (finished.kind !== 'new') {
      const totals = totalsOf(readEvents(finished.runDir).events);
      progress.tokens += totals.inputTokens + totals.outputTokens;
      progress.costUsd += totals.costUsd;
    }
    evaluation.emit({
      type: 'eval-run-end',
      key: run.key,
      status: finished.kind === 'finished' ? finished.status : 'failed',
      ...(finished.kind === 'new' ? {} : { runDir: finished.runDir }),
      ...(failedReason === undefined ? {} : { message: failedReason }),
      ...(unpackProblem === undefined ? {} : { message: unpackProblem }),
      durationMs,
    });
    evaluation.emit(progress.event());
  }

  /** With results through the queue: the run folders out of the job's result; what went wrong, if anything. */
  private async unpack(run: PlannedRun, job: RunJobHandle): Promise<string | undefined> {
    if (this.options.results !== 'queue') return undefined;
    try {
      const archive = job.returnvalue.archive;
      if (archive !== undefined) await unpackRoot(archive, run.root, this.context.evalDir);
      await job.remove();
      return undefined;
    } catch (error) {
      return `could not unpack the run folders: ${errorMessage(error)}`;
    }
  }
}
