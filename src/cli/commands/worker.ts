import { resolve } from 'node:path';
import type { Worker } from 'bullmq';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { queueConnection } from '../../eval/dispatch/queue-connection.js';
import { startWorker, type WorkerOptions } from '../../eval/dispatch/run-worker.js';
import { errorMessage, exitCodeOf } from '../../errors/codify-error.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { addModelOptions, countSchema, parseNumberFlag } from '../options.js';

interface WorkerCommandOptions {
  queue: string;
  concurrency?: number;
  workDir?: string;
}

/** `codify worker --queue URL`: runs evaluation runs from the queue until stopped. */
export function registerWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .description('take runs of `codify eval --queue` from the queue and run them, until stopped')
    .requiredOption(
      '--queue <url>',
      'the Redis of the evaluation queue, e.g. redis://10.0.0.5:6379',
    )
    .option(
      '--concurrency <n>',
      'runs at a time in this worker (default 1)',
      parseNumberFlag('--concurrency', countSchema),
    )
    .option(
      '--work-dir <dir>',
      'where runs of `codify eval --results queue` are made before they are sent back (default <tmp>/codify-worker)',
    );
  addModelOptions(command).action(async (options: WorkerCommandOptions) => {
    try {
      queueConnection(options.queue);
      const baseConfig = loadConfig({
        flags: modelFlagsFrom(options as unknown as Record<string, unknown>),
      });
      const stop = new AbortController();
      const worker = startWorker({
        url: options.queue,
        baseConfig,
        concurrency: options.concurrency ?? 1,
        signal: stop.signal,
        ...(options.workDir === undefined ? {} : { workDir: resolve(options.workDir) }),
        onJob: (job) => process.stdout.write(`${jobLine(job)}\n`),
      });
      worker.on('error', (error) => process.stderr.write(`codify worker: ${error.message}\n`));
      process.stdout.write(
        `codify worker: waiting for runs on ${options.queue} (Ctrl-C to stop)\n`,
      );
      const signalled = await untilSignalled(worker, stop);
      process.exitCode = signalCodes[signalled];
    } catch (error) {
      process.stderr.write(`codify worker: ${errorMessage(error)}\n`);
      process.exitCode = exitCodeOf(error);
    }
  });
}

function jobLine({
  key,
  phase,
  result,
  error,
}: Parameters<NonNullable<WorkerOptions['onJob']>>[0]): string {
  if (phase === 'start') return `start ${key}`;
  if (error !== undefined) return `failed ${key}: ${error}`;
  const status = result?.skipped === true ? 'already finished' : (result?.status ?? '');
  const where =
    result?.runDir === null || result?.runDir === undefined ? '' : ` → ${result.runDir}`;
  return `end ${key}: ${status}${where}`;
}

/** How long a stopping worker waits for Redis to close its connections. */
const closeWithinMs = 10_000;

const signalCodes = { SIGINT: exitCodes.stopped, SIGTERM: exitCodes.terminated } as const;

/**
 * Works until Ctrl-C or SIGTERM: then the runs under way are stopped (they end `stopped`,
 * their jobs fail and are taken up by another worker, which continues them), the worker
 * closes its connections, and the process ends by itself. Closing needs Redis and the runs
 * to stop: when that has not happened within 10 s, and on a second signal, the process
 * exits at once (its connections would otherwise keep trying for ever).
 */
function untilSignalled(worker: Worker, stop: AbortController): Promise<'SIGINT' | 'SIGTERM'> {
  return new Promise((resolvePromise) => {
    let first: 'SIGINT' | 'SIGTERM' | undefined;
    const exitNow = (name: 'SIGINT' | 'SIGTERM', why: string) => {
      process.stdout.write(`codify worker: ${why}; exiting now\n`);
      process.exit(signalCodes[name]);
    };
    const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
      if (first !== undefined) exitNow(first, `${name} again`);
      first = name;
      process.stdout.write(
        'codify worker: stopping the runs under way; another worker continues them\n',
      );
      stop.abort(new Error(`interrupted by ${name}`));
      const timer = setTimeout(
        () =>
          exitNow(
            name,
            `not closed within ${closeWithinMs / 1000} s (Redis unreachable, or a run that cannot stop; it is taken up again)`,
          ),
        closeWithinMs,
      );
      void worker.close().then(() => {
        clearTimeout(timer);
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        resolvePromise(name);
      });
    };
    const onInt = () => onSignal('SIGINT');
    const onTerm = () => onSignal('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}
