import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { errorMessage, exitCodeOf, InputError, UsageError } from '../../errors/codify-error.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { RunStopped } from '../../errors/run-stopped.js';
import { collectEvaluation, type EvalSummary } from '../../eval/collection/collect-evaluation.js';
import type { Dispatch } from '../../eval/dispatch/dispatch.js';
import type { Suite } from '../../eval/suite/suite.js';
import { stopOnInterrupt } from '../interrupt.js';
import { loadSuite } from '../../eval/suite/load-suite.js';
import { planRuns } from '../../eval/suite/plan-runs.js';
import { withSeeds } from '../../eval/suite/with-seeds.js';
import { parseSeedsText } from '../../modes/seeds-setting.js';
import { runEvaluation } from '../../eval/run-evaluation.js';
import { queueConnection } from '../../eval/dispatch/queue-connection.js';
import { queueDispatch } from '../../eval/dispatch/queue-dispatch.js';
import { slugify } from '../../runs/run-folder-name.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import { type ReportPaths, writeReports } from '../../eval/reports/write-reports.js';
import { renderTable } from '../render/render-table.js';
import { evalSettings } from '../../modes/eval-settings.js';
import {
  addModelOptions,
  addSettingOptions,
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
  queueTimeout?: number;
  seeds?: number[];
  keepFailures?: boolean;
  json?: boolean;
}

/** `codify eval SUITE`: every combination of a suite as ordinary runs, then the reports. */
export function registerEvalCommand(program: Command): void {
  const command = evalCommandOptions(program);
  addSettingOptions(command, evalSettings.shape);
  addModelOptions(command).action(runEvalCommand);
}

/** The command and its own flags (the mode's settings and the model flags come after). */
function evalCommandOptions(program: Command): Command {
  return program
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
    .option(
      '--queue-timeout <s>',
      'with --queue: how long Redis may be unreachable before the evaluation gives up, leaving what is not done for the next run (default 30)',
      parseNumberFlag('--queue-timeout', amountSchema),
    )
    .option(
      '--seeds <n|list>',
      "run each task's starter and final scripts on N seeds (0 … N−1) or on the seeds listed (0,1,7), paired seed by seed for the verdict; beats the suite's seeds:",
      parseSeedsFlag,
    )
    .addOption(jsonOption('every evaluation event as one JSON line'));
}

/** Runs (or reports) the evaluation and sets the exit code. */
async function runEvalCommand(suitePath: string, options: EvalCommandOptions): Promise<void> {
  const renderer = createEvalRenderer({ json: options.json ?? false });
  // Ctrl-C or SIGTERM stops the runs in flight (they end `stopped`) and the evaluation;
  // the same command continues it. A second signal exits at once.
  const interrupt = stopOnInterrupt('eval');
  try {
    checkFlags(options);
    const suite = withSeeds(loadSuite(suitePath), options.seeds);
    const evalDir =
      options.out ?? join(resolveRunsRoot(options.root), `eval-${slugify(suite.name)}`);
    if (suite.sandbox === 'none' && options.json !== true)
      process.stderr.write(`${noSandboxWarning}\n`);
    const baseConfig = loadConfig({
      flags: modelFlagsFrom(options as unknown as Record<string, unknown>),
    });
    const summaryAndReports =
      options.reportOnly === true
        ? await reportOnly(suite, evalDir, suitePath)
        : await runEvaluation({
            suite,
            evalDir,
            parallel: options.parallel ?? 1,
            baseConfig,
            ...(options.keepFailures === true ? { keepFailures: true } : {}),
            host: { sinks: [renderer], argv: process.argv.slice(2), signal: interrupt.signal },
            ...(options.queue === undefined
              ? {}
              : { dispatch: queueDispatchOf(options.queue, options) }),
          });
    renderer.finish();
    const { summary, reports } = summaryAndReports;
    if (options.json !== true) printSummary(summary, reports);
    // Runs missing or failed: the evaluation is not whole (the same command tries them again).
    process.exitCode =
      summary.missing.length === 0 && summary.failed.length === 0
        ? exitCodes.ok
        : exitCodes.runFailed;
  } catch (error) {
    renderer.finish();
    process.stderr.write(
      error instanceof RunStopped
        ? `codify eval: stopped (${error.message}); run the same command again to finish what is missing\n`
        : `codify eval: ${errorMessage(error)}\n`,
    );
    process.exitCode = exitCodeOf(error);
  } finally {
    interrupt.dispose();
  }
}

function parseSeedsFlag(text: string): number[] {
  const parsed = parseSeedsText(text);
  if (!parsed.ok) throw new UsageError(`--seeds: ${parsed.reason} (got "${text}")`);
  return parsed.seeds;
}

/** The closing table: runs finished, missing and failed, tokens, cost, the reports. */
function printSummary(summary: EvalSummary, reports: ReportPaths): void {
  process.stdout.write(
    `${renderTable([
      ['runs', `${summary.totals.finished} of ${summary.totals.runs} finished`],
      ...(summary.missing.length === 0
        ? []
        : [['missing', summary.missing.join(', ')] as [string, string]]),
      ...(summary.failed.length === 0
        ? []
        : [['failed', summary.failed.join(', ')] as [string, string]]),
      ['tokens', String(summary.totals.tokens)],
      ['cost', `$${summary.totals.costUsd.toFixed(4)}`],
      ['report', reports.markdown],
      ['html', reports.html],
      ['data', reports.json],
    ])}\n`,
  );
}

/** Flags that only go with others. */
function checkFlags(options: EvalCommandOptions): void {
  if (options.queue !== undefined) queueConnection(options.queue);
  if (options.queue === undefined && options.results !== undefined)
    throw new UsageError('--results is for --queue: give the Redis URL the workers take runs from');
  if (options.results !== 'queue' && options.maxResultMb !== undefined)
    throw new UsageError('--max-result-mb is for --results queue');
  if (options.queue === undefined && options.queueTimeout !== undefined)
    throw new UsageError('--queue-timeout is for --queue');
}

/** `--report-only`: the reports of the runs already in the evaluation folder. */
async function reportOnly(
  suite: Suite,
  evalDir: string,
  suitePath: string,
): Promise<{ summary: EvalSummary; reports: ReportPaths }> {
  if (!existsSync(join(evalDir, 'events.jsonl'))) {
    throw new InputError(
      `no evaluation in ${evalDir}: run codify eval ${suitePath} first (--report-only builds the reports of one that ran), or point --out at it`,
    );
  }
  const summary = await collectEvaluation(suite, evalDir, planRuns(suite, evalDir));
  return { summary, reports: await writeReports(summary) };
}

function queueDispatchOf(url: string, options: EvalCommandOptions): Dispatch {
  return queueDispatch({
    url,
    ...(options.results === undefined ? {} : { results: options.results }),
    ...(options.queueTimeout === undefined ? {} : { timeoutS: options.queueTimeout }),
    ...(options.maxResultMb === undefined
      ? {}
      : { maxResultBytes: Math.round(options.maxResultMb * 1048576) }),
  });
}
