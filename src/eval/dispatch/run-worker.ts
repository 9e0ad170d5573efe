import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import type { CodifyConfig } from '../../config/codify-config.js';
import type { EventSink } from '../../runs/events.js';
import { type AnswererFactory, executeRun } from './execute-run.js';
import { loadSuite } from '../suite/load-suite.js';
import { planRuns } from '../suite/plan-runs.js';
import {
  jobIdFor,
  queueConnection,
  queueName,
  type RunJob,
  type RunJobResult,
} from './queue-connection.js';
import { ArchiveTooLargeError, defaultMaxResultBytes, packRoot } from './run-archive.js';
import { stateOf } from './run-state.js';

export interface WorkerOptions {
  url: string;
  /** Runs at a time in this worker (default 1). */
  concurrency?: number;
  /** This machine's configuration: providers, keys, prices (the suite names the models). */
  baseConfig: CodifyConfig;
  answerers?: AnswererFactory;
  /** Events of every run this worker works on. */
  sinks?: EventSink[];
  /** How long a job's lock lasts without renewal: a dead worker's run is retried after it (default BullMQ's 30 s). */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default BullMQ's 30 s). */
  stalledIntervalMs?: number;
  /**
   * Where runs whose results go back through the queue are worked on (default
   * `<tmp>/codify-worker`); one folder per job, so a restarted worker resumes its own.
   */
  workDir?: string;
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
  const worker = new Worker<RunJob, RunJobResult>(
    queueName,
    async (job) => {
      const { suiteFile, key } = job.data;
      const viaQueue = job.data.results === 'queue';
      // Results through the queue: the run is made here, in a folder of this machine's.
      const evalDir = viaQueue
        ? join(options.workDir ?? join(tmpdir(), 'codify-worker'), jobIdFor(job.data.evalDir, key))
        : job.data.evalDir;
      options.onJob?.({ key, phase: 'start' });
      const suite = loadSuite(suiteFile);
      const planned = planRuns(suite, evalDir).find((run) => run.key === key);
      if (planned === undefined)
        throw new Error(`${suiteFile} has no run ${key}: was the suite changed?`);
      /** With results through the queue, the run folders go back in the result. */
      const send = async (result: RunJobResult): Promise<RunJobResult> => {
        if (!viaQueue) return result;
        try {
          const archive = await packRoot(
            planned.root,
            evalDir,
            job.data.maxResultBytes ?? defaultMaxResultBytes,
          );
          // Sent: the coordinator has them once the job completes.
          rmSync(evalDir, { recursive: true, force: true });
          return { ...result, archive };
        } catch (error) {
          // Retrying cannot make the folders smaller.
          if (error instanceof ArchiveTooLargeError) throw new UnrecoverableError(error.message);
          throw error;
        }
      };
      const state = stateOf(planned);
      if (state.kind === 'finished') {
        const result = await send({
          key,
          status: state.status,
          runDir: state.runDir,
          tokens: 0,
          costUsd: 0,
          skipped: true,
        });
        options.onJob?.({ key, phase: 'end', result });
        return result;
      }
      let tokens = 0;
      let costUsd = 0;
      let runDir: string | null = null;
      let status = 'failed';
      try {
        await executeRun({
          suite,
          planned,
          state,
          baseConfig: options.baseConfig,
          ...(options.answerers === undefined ? {} : { answerers: options.answerers }),
          argv: ['worker', key],
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
          onRun: (run) => {
            runDir = run.dir;
          },
        });
      } catch (error) {
        options.onJob?.({
          key,
          phase: 'end',
          error: error instanceof Error ? error.message : String(error),
        });
        throw error;
      }
      let result: RunJobResult;
      try {
        result = await send({ key, status, runDir, tokens, costUsd });
      } catch (error) {
        options.onJob?.({
          key,
          phase: 'end',
          error: error instanceof Error ? error.message : String(error),
        });
        throw error;
      }
      options.onJob?.({ key, phase: 'end', result });
      return result;
    },
    {
      connection: queueConnection(options.url),
      concurrency: options.concurrency ?? 1,
      // A worker killed mid-run: its job is taken up again, up to three times.
      maxStalledCount: 3,
      ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
      ...(options.stalledIntervalMs === undefined
        ? {}
        : { stalledInterval: options.stalledIntervalMs }),
    },
  );
  return worker;
}
