import { rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import type { CodifyConfig } from '../../config/codify-config.js';
import { errorMessage } from '../../errors/codify-error.js';
import { throwIfStopped } from '../../errors/run-stopped.js';
import type { EventSink } from '../../runs/events.js';
import { type AnswererFactory, executeRun } from './execute-run.js';
import { loadSuite } from '../suite/load-suite.js';
import { planRuns, type PlannedRun } from '../suite/plan-runs.js';
import type { Suite } from '../suite/suite.js';
import {
  jobIdFor,
  queueConnection,
  queueName,
  type RunJob,
  type RunJobResult,
} from './queue-connection.js';
import { ArchiveTooLargeError, defaultMaxResultBytes, packRoot } from './run-archive.js';
import { type RunState, stateOf } from './run-state.js';

export interface WorkerOptions {
  url: string;
  /** Runs at a time in this worker (default 1). */
  concurrency?: number;
  /** This machine's configuration: providers, keys, prices (the suite names the models). */
  baseConfig: CodifyConfig;
  answerers?: AnswererFactory;
  /** Events of every run this worker works on. */
  sinks?: EventSink[];
  /**
   * Stops the runs under way (they end `stopped`; the job fails and its run is continued
   * when the job is taken up again).
   */
  signal?: AbortSignal;
  /** How long a job's lock lasts without renewal: a dead worker's run is retried after it (default BullMQ's 30 s). */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default BullMQ's 30 s). */
  stalledIntervalMs?: number;
  /**
   * Where runs whose results go back through the queue are worked on (default
   * `<tmp>/codify-worker`); one folder per job, so a restarted worker resumes its own.
   */
  workDir?: string;
  /**
   * How the coordinator names this worker when it reports the runs it held or took again
   * (default `HOST:PID`, unique among the workers alive).
   */
  name?: string;
  /** Called when a job starts and ends, for a terminal line. */
  onJob?: (event: {
    key: string;
    phase: 'start' | 'end';
    result?: RunJobResult;
    error?: string;
  }) => void;
}

/**
 * `codify worker`: takes runs from the evaluation queue and runs each in the shared
 * evaluation folder (or, for `--results queue`, in a folder of its own, sending the run
 * folders back compressed in the job's result), as `codify eval` would locally: a finished run is not run again, a
 * run interrupted by a worker that died is resumed (implement) or started again (paper).
 * A dead worker's job is handed to another by BullMQ once its lock expires.
 */
export function startWorker(options: WorkerOptions): Worker<RunJob, RunJobResult> {
  return new Worker<RunJob, RunJobResult>(queueName, (job) => runJob(job.data, options), {
    connection: queueConnection(options.url),
    concurrency: options.concurrency ?? 1,
    name: options.name ?? `${hostname()}:${process.pid}`,
    // A worker killed mid-run: its job is taken up again, up to three times.
    maxStalledCount: 3,
    ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs === undefined
      ? {}
      : { stalledInterval: options.stalledIntervalMs }),
  });
}

/** One job: its run (skipped when finished), then the result, with the folders when they go back through the queue. */
async function runJob(data: RunJob, options: WorkerOptions): Promise<RunJobResult> {
  const { suiteFile, key } = data;
  const viaQueue = data.results === 'queue';
  // Results through the queue: the run is made here, in a folder of this machine's.
  const evalDir = viaQueue
    ? join(options.workDir ?? join(tmpdir(), 'codify-worker'), jobIdFor(data.evalDir, key))
    : data.evalDir;
  options.onJob?.({ key, phase: 'start' });
  try {
    const suite = loadSuite(suiteFile);
    const planned = planRuns(suite, evalDir).find((run) => run.key === key);
    if (planned === undefined)
      throw new Error(`${suiteFile} has no run ${key}: was the suite changed?`);
    const state = stateOf(planned);
    const result =
      state.kind === 'finished'
        ? { key, status: state.status, runDir: state.runDir, tokens: 0, costUsd: 0, skipped: true }
        : await runPlanned(suite, planned, state, options);
    const sent = viaQueue
      ? await sendBack(result, planned.root, evalDir, data.maxResultBytes)
      : result;
    options.onJob?.({ key, phase: 'end', result: sent });
    return sent;
  } catch (error) {
    options.onJob?.({ key, phase: 'end', error: errorMessage(error) });
    throw error;
  }
}

/** Runs the combination as `codify eval` would locally, counting what it spends. */
async function runPlanned(
  suite: Suite,
  planned: PlannedRun,
  state: RunState,
  options: WorkerOptions,
): Promise<RunJobResult> {
  let tokens = 0;
  let costUsd = 0;
  let runDir: string | null = null;
  let status = 'failed';
  await executeRun({
    suite,
    planned,
    state,
    baseConfig: options.baseConfig,
    ...(options.answerers === undefined ? {} : { answerers: options.answerers }),
    host: {
      argv: ['worker', planned.key],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      sinks: [
        ...(options.sinks ?? []),
        (event) => {
          if (event.type === 'llm-end') {
            tokens += event.usage.inputTokens + event.usage.outputTokens;
            costUsd += event.costUsd ?? 0;
          } else if (event.type === 'run-end') {
            status = event.status;
          }
        },
      ],
    },
    onRun: (run) => {
      runDir = run.dir;
    },
  });
  // Stopped with the worker: the job fails, and the worker that takes it up continues the run.
  throwIfStopped(options.signal);
  return { key: planned.key, status, runDir, tokens, costUsd };
}

/** The run folders, compressed, in the job's result; this worker's copy is removed once packed. */
async function sendBack(
  result: RunJobResult,
  root: string,
  evalDir: string,
  maxResultBytes: number | undefined,
): Promise<RunJobResult> {
  try {
    const archive = await packRoot(root, evalDir, maxResultBytes ?? defaultMaxResultBytes);
    // Sent: the coordinator has them once the job completes.
    rmSync(evalDir, { recursive: true, force: true });
    return { ...result, archive };
  } catch (error) {
    // Retrying cannot make the folders smaller.
    if (error instanceof ArchiveTooLargeError) throw new UnrecoverableError(error.message);
    throw error;
  }
}
