import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Job, Queue } from 'bullmq';
import { errorMessage } from '../../errors/codify-error.js';
import { readEvents } from '../../runs/read-events.js';
import { totalsOf } from '../../runs/run-totals.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { DispatchContext, Dispatch } from './dispatch.js';
import {
  jobIdFor,
  queueClient,
  queueName,
  type ResultsTransport,
  type RunJob,
  type RunJobResult,
} from './queue-connection.js';
import { defaultMaxResultBytes, unpackRoot } from './run-archive.js';
import { defaultQueueTimeoutS, withinReach } from './redis-reach.js';
import { type RunState, stateOf } from './run-state.js';

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
  /** How long Redis may be unreachable before the evaluation gives up (default 30 s). */
  timeoutS?: number;
  /**
   * A run whose job is gone from Redis (restarted without its data) is enqueued again: at
   * once when nothing has started it, else once its folder has not changed for this long,
   * so a run a worker is still working on is not run twice (default 120 s).
   */
  lostAfterMs?: number;
}

type RunQueue = Queue<RunJob, RunJobResult>;
type RunJobHandle = Job<RunJob, RunJobResult>;

/** How long a run whose job Redis lost must be still before it is enqueued again. */
const defaultLostAfterMs = 120_000;

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
  const dispatch: Dispatch = async (context) => {
    const client = queueClient(options.url);
    const queue: RunQueue = new Queue(queueName, { connection: client });
    // Connection errors repeat while ioredis reconnects: kept for the one line that says so.
    let lastError = 'no answer';
    const remember = (error: Error) => (lastError = error.message);
    client.on('error', remember);
    queue.on('error', remember);
    const timeoutMs = (options.timeoutS ?? defaultQueueTimeoutS) * 1000;
    const signal = context.host.signal;
    const stopped = () => signal?.aborted === true;
    let reached = false;
    const reach = <T>(work: Promise<T>): Promise<T | undefined> =>
      withinReach(
        work,
        timeoutMs,
        () =>
          `cannot reach Redis at ${options.url} (${lastError}) for ${timeoutMs / 1000} s; ${watch.pending.size} runs are left to do: run the same command again once Redis is up`,
        signal,
      );
    const ids = new Map(
      context.unfinished.map((run) => [run.key, jobIdFor(context.evalDir, run.key)]),
    );
    const watch = new JobWatch(queue, context, options, ids);
    try {
      await reach(queue.waitUntilReady());
      if (stopped()) return 0;
      await reach(enqueueRuns(queue, context, options, ids, context.unfinished));
      await reach(watch.lookWorkers());
      while (watch.pending.size > 0 && !stopped()) {
        await sleep(options.pollMs ?? 1000);
        await reach(watch.lookWorkers());
        await reach(watch.lookAll());
      }
      reached = true;
      return context.unfinished.length;
    } finally {
      // Closing waits for Redis; a client that cannot reach it is cut off instead.
      if (reached) await queue.close();
      client.disconnect();
    }
  };
  dispatch.kind = 'queue';
  return dispatch;
}

/** A worker's name from its Redis client name (`bull:QUEUE:w:NAME`); unnamed ones by the whole. */
function workerName(clientName: string): string {
  const marker = clientName.indexOf(':w:');
  return marker < 0 ? clientName : clientName.slice(marker + ':w:'.length);
}

/** One job per run; a job that failed for good under an earlier coordinator is tried again. */
async function enqueueRuns(
  queue: RunQueue,
  context: DispatchContext,
  options: QueueDispatchOptions,
  ids: Map<string, string>,
  runs: PlannedRun[],
): Promise<void> {
  const viaQueue = options.results === 'queue';
  for (const run of runs) {
    const earlier = await queue.getJob(ids.get(run.key) ?? '');
    if (earlier !== undefined && (await earlier.getState()) === 'failed') await earlier.remove();
  }
  await queue.addBulk(
    runs.map((run) => ({
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
  /** The worker holding each run under way (its job's processedBy). */
  private readonly holders = new Map<string, string>();
  /** Runs whose worker was lost, with when that was noticed, until another takes them. */
  private readonly lostBy = new Map<string, { worker: string; at: number }>();
  /** The workers watched: connected at the last look, or missing from it alone. */
  private live: Set<string> | undefined;
  /** The workers connected to Redis at the last look. */
  private connected = new Set<string>();
  /** Workers missing from the last look: gone when missing from the next one too. */
  private readonly absentOnce = new Set<string>();

  constructor(
    private readonly queue: RunQueue,
    private readonly context: DispatchContext,
    private readonly options: QueueDispatchOptions,
    private readonly ids: Map<string, string>,
  ) {
    this.pending = new Map(context.unfinished.map((run) => [run.key, run]));
  }

  /**
   * Counts the workers connected now (the progress line and the time-left estimate use
   * them) and reports each one gone since the last look with the runs it held; those go
   * back to the queue (BullMQ's stall check) and are reported when taken again.
   */
  async lookWorkers(): Promise<void> {
    const clients = await this.queue.getWorkers();
    const connected = new Set(
      clients.map((client) => workerName(client.rawname ?? client.name ?? '')),
    );
    const watched = new Set(connected);
    for (const worker of this.live ?? []) {
      if (connected.has(worker)) {
        this.absentOnce.delete(worker);
      } else if (this.absentOnce.delete(worker)) {
        this.workerGone(worker);
      } else {
        // Gone from one look only (a reconnection after a Redis restart): looked at again next time.
        this.absentOnce.add(worker);
        watched.add(worker);
      }
    }
    this.live = watched;
    this.connected = connected;
    this.context.progress.workers = connected.size;
  }

  private workerGone(worker: string): void {
    const held = [...this.holders].filter(([, holder]) => holder === worker).map(([key]) => key);
    if (held.length === 0) return;
    for (const key of held) {
      this.holders.delete(key);
      this.lostBy.set(key, { worker, at: Date.now() });
    }
    this.context.evaluation.emit({ type: 'eval-worker-lost', worker, runs: held });
    this.context.evaluation.emit(this.context.progress.event());
  }

  /** Who holds a run now; a run a lost worker held, taken by another, is reported so. */
  private holder(run: PlannedRun, job: RunJobHandle, state: string | undefined): void {
    const worker = job.processedBy;
    if (state !== 'active' || worker === undefined) return;
    const lost = this.lostBy.get(run.key);
    // The lost worker still named as the job's holder: it has not been handed on yet.
    if (lost?.worker === worker && !this.connected.has(worker)) return;
    if (lost !== undefined) {
      this.lostBy.delete(run.key);
      if (lost.worker !== worker) {
        this.context.evaluation.emit({
          type: 'eval-run-retaken',
          key: run.key,
          worker,
          lostWorker: lost.worker,
          afterMs: Date.now() - lost.at,
        });
      }
    }
    this.holders.set(run.key, worker);
  }

  /** Looks at every pending run once. */
  async lookAll(): Promise<void> {
    for (const run of [...this.pending.values()]) await this.look(run);
  }

  /** Reports a run that has started or ended since the last look. */
  async look(run: PlannedRun): Promise<void> {
    const job = await this.queue.getJob(this.ids.get(run.key) ?? '');
    const state = job === undefined ? undefined : await job.getState();
    const folder = stateOf(run);
    if (job !== undefined) this.holder(run, job, state);
    if (!this.running.has(run.key) && (state === 'active' || folder.kind === 'interrupted')) {
      this.started(run, folder.kind === 'new' ? run.root : folder.runDir);
    }
    // Removed on completion: a job that is gone has ended (or was never added by this
    // coordinator because an earlier one's is still there: then the folder decides).
    const ended =
      job === undefined ? folder.kind === 'finished' : state === 'completed' || state === 'failed';
    if (ended) await this.ended(run, job, state);
    else if (job === undefined) await this.lost(run, folder);
  }

  /**
   * A job gone before its run finished: Redis lost it (restarted without its data). It is
   * enqueued again, at once when its run never started, else once the run's folder has
   * been still for `lostAfterMs` (a worker may still be working on it).
   */
  private async lost(run: PlannedRun, folder: RunState): Promise<void> {
    if (folder.kind === 'interrupted') {
      const log = join(folder.runDir, 'events.jsonl');
      const stillMs = existsSync(log) ? Date.now() - statSync(log).mtimeMs : Infinity;
      if (stillMs < (this.options.lostAfterMs ?? defaultLostAfterMs)) return;
    }
    await enqueueRuns(this.queue, this.context, this.options, this.ids, [run]);
    this.context.evaluation.emit({
      type: 'log',
      level: 'warn',
      message: `the job of ${run.key} is gone from Redis (restarted without its data?): enqueued again`,
    });
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
    this.holders.delete(run.key);
    this.lostBy.delete(run.key);
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
