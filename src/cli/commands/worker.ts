import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { queueConnection } from '../../eval/queue-connection.js';
import { startWorker } from '../../eval/run-worker.js';
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
      const worker = startWorker({
        url: options.queue,
        baseConfig,
        concurrency: options.concurrency ?? 1,
        ...(options.workDir === undefined ? {} : { workDir: resolve(options.workDir) }),
        onJob: ({ key, phase, result, error }) => {
          const line =
            phase === 'start'
              ? `start ${key}`
              : error !== undefined
                ? `failed ${key}: ${error}`
                : `end ${key}: ${result?.skipped === true ? 'already finished' : (result?.status ?? '')}${result?.runDir === null || result?.runDir === undefined ? '' : ` → ${result.runDir}`}`;
          process.stdout.write(`${line}\n`);
        },
      });
      worker.on('error', (error) => process.stderr.write(`codify worker: ${error.message}\n`));
      process.stdout.write(
        `codify worker: waiting for runs on ${options.queue} (Ctrl-C to stop)\n`,
      );
      let stopping = false;
      const stop = () => {
        // A second signal stops at once; the run under way is resumed by another worker.
        if (stopping) process.exit(130);
        stopping = true;
        process.stdout.write(
          'codify worker: finishing the runs under way (Ctrl-C again to stop now)\n',
        );
        void worker.close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      await new Promise<never>(() => undefined);
    } catch (error) {
      process.stderr.write(
        `codify worker: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 2;
    }
  });
}
