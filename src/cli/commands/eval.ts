import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { collectEvaluation } from '../../eval/collect-evaluation.js';
import { loadSuite } from '../../eval/load-suite.js';
import { planRuns } from '../../eval/plan-runs.js';
import { runEvaluation } from '../../eval/run-evaluation.js';
import { queueConnection } from '../../eval/queue-connection.js';
import { queueDispatch } from '../../eval/queue-dispatch.js';
import { slugify } from '../../runs/run-folder-name.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import { writeReports } from '../../eval/write-reports.js';
import { renderTable } from '../render/render-table.js';
import {
  addModelOptions,
  amountSchema,
  countSchema,
  jsonOption,
  parseNumberFlag,
  runFolderOption,
} from '../options.js';
import { createEvalRenderer } from './eval-renderer.js';

interface EvalCommandOptions {
  parallel?: number;
  out?: string;
  root?: string;
  reportOnly?: boolean;
  queue?: string;
  results?: 'shared' | 'queue';
  maxResultMb?: number;
  json?: boolean;
}

/** `codify eval SUITE`: every combination of a suite as ordinary runs, then the reports. */
export function registerEvalCommand(program: Command): void {
  const command = program
    .command('eval')
    .description(
      "run a suite (tasks, papers and explorations × strategies × models × trials) and report the seed papers' metrics",
    )
    .argument('<suite>', 'the suite file (YAML or JSON)')
    .option(
      '--parallel <n>',
      'runs at a time on this machine (default 1)',
      parseNumberFlag('--parallel', countSchema),
    )
    .option(
      '--out <dir>',
      'the evaluation folder (default <root>/eval-<suite name>); running again there does only what is missing',
    )
    .addOption(runFolderOption('for'))
    .option(
      '--report-only',
      'build the reports from the runs already there, without running anything',
    )
    .option(
      '--queue <url>',
      'enqueue the runs on this Redis for `codify worker` processes (the --out folder shared with them, or --results queue)',
    )
    .addOption(
      new Option(
        '--results <where>',
        'with --queue: how run folders come back: written by the workers into the shared --out folder, or sent back through the queue',
      ).choices(['shared', 'queue']),
    )
    .option(
      '--max-result-mb <n>',
      "with --results queue: the cap on one run's compressed folders (default 32)",
      parseNumberFlag('--max-result-mb', amountSchema),
    )
    .addOption(jsonOption('every evaluation event as one JSON line'));
  addModelOptions(command).action(async (suitePath: string, options: EvalCommandOptions) => {
    const renderer = createEvalRenderer({ json: options.json ?? false });
    const controller = new AbortController();
    let interrupts = 0;
    const onInterrupt = () => {
      interrupts += 1;
      if (interrupts > 1) {
        // Killed runs are resumed by the next `codify eval` on the same folder.
        renderer.finish();
        process.stderr.write(
          'codify eval: stopped; run the same command again to finish what is missing\n',
        );
        process.exit(130);
      }
      controller.abort();
      process.stderr.write(
        '\ncodify eval: starting no more runs; the running ones finish (Ctrl-C again to stop them now: they resume next time)\n',
      );
    };
    process.on('SIGINT', onInterrupt);
    try {
      if (options.queue !== undefined) queueConnection(options.queue);
      if (options.queue === undefined && options.results !== undefined)
        throw new Error('--results is for --queue: give the Redis URL the workers take runs from');
      if (options.results !== 'queue' && options.maxResultMb !== undefined)
        throw new Error('--max-result-mb is for --results queue');
      const suite = loadSuite(suitePath);
      const evalDir =
        options.out ?? join(resolveRunsRoot(options.root), `eval-${slugify(suite.name)}`);
      if (suite.sandbox === 'none' && options.json !== true)
        process.stderr.write(`${noSandboxWarning}\n`);
      const baseConfig = loadConfig({
        flags: modelFlagsFrom(options as unknown as Record<string, unknown>),
      });
      let summaryAndReports;
      if (options.reportOnly === true) {
        if (!existsSync(join(evalDir, 'events.jsonl'))) {
          throw new Error(
            `no evaluation in ${evalDir}: run codify eval ${suitePath} first (--report-only builds the reports of one that ran), or point --out at it`,
          );
        }
        const summary = await collectEvaluation(suite, evalDir, planRuns(suite, evalDir));
        summaryAndReports = { summary, reports: await writeReports(summary) };
      } else {
        summaryAndReports = await runEvaluation({
          suite,
          evalDir,
          parallel: options.parallel ?? 1,
          baseConfig,
          sinks: [renderer],
          argv: process.argv.slice(2),
          signal: controller.signal,
          ...(options.queue === undefined
            ? {}
            : {
                dispatch: queueDispatch({
                  url: options.queue,
                  ...(options.results === undefined ? {} : { results: options.results }),
                  ...(options.maxResultMb === undefined
                    ? {}
                    : { maxResultBytes: Math.round(options.maxResultMb * 1048576) }),
                }),
              }),
        });
      }
      renderer.finish();
      const { summary, reports } = summaryAndReports;
      if (options.json !== true) {
        process.stdout.write(
          `${renderTable([
            ['runs', `${summary.totals.finished} of ${summary.totals.runs} finished`],
            ...(summary.missing.length === 0
              ? []
              : [['missing', summary.missing.join(', ')] as [string, string]]),
            ['tokens', String(summary.totals.tokens)],
            ['cost', `$${summary.totals.costUsd.toFixed(4)}`],
            ['report', reports.markdown],
            ['html', reports.html],
            ['data', reports.json],
          ])}\n`,
        );
      }
      process.exitCode = summary.missing.length === 0 ? 0 : 1;
    } catch (error) {
      renderer.finish();
      process.stderr.write(
        `codify eval: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 2;
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  });
}
