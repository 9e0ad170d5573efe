import type { Command } from 'commander';
import { modelSpecsOf } from '../../config/model-specs.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import type { PaperSettings } from '../../modes/paper-settings.js';
import {
  checkModelPdfReading,
  checkPdfForModelReader,
} from '../../reader/read-paper-with-model.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { reportError } from '../report-error.js';
import { runPaper, type PaperOutcome } from '../../repo/run-paper.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import type { RunHost } from '../../runs/run-host.js';
import { createTerminalRenderer, type TerminalRenderer } from '../render/terminal-renderer.js';
import { addModeOptions } from '../mode-options.js';
import { addJsonOption, addRunFolderOption } from '../options.js';
import { stopOnInterrupt } from '../interrupt.js';
import { renderTable } from '../render/render-table.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';

/** What commander hands the action: the paper settings (less the paper) and the output flags. */
type PaperCommandOptions = Omit<PaperSettings, 'paper'> & { json?: boolean; root?: string };

const money = (cost: number | null) => (cost === null ? 'unknown' : `$${cost.toFixed(4)}`);

/** `codify paper PAPER`: a paper in, a git repository that runs (or says plainly why not) out. */
export function registerPaperCommand(program: Command): void {
  const command = program
    .command('paper')
    .description(
      'turn a paper (PDF, LaTeX, Markdown or text) into a repository: plan, analyze, generate, then run and repair it',
    );
  addModeOptions(command, 'paper');
  addRunFolderOption(command, 'for');
  addJsonOption(command, 'every event as one JSON line');
  command.action(async (paper: string, options: PaperCommandOptions) => {
    if (options.sandbox === 'none' && !options.json) process.stderr.write(`${noSandboxWarning}\n`);
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options);
    await reportPaperRun('paper', options, renderer, async (host) => {
      // Bad model flags or missing API keys stop the command before a run folder is made.
      if (options.paperReader === 'model') await checkPdfForModelReader(paper);
      const config = loadModelSetup(flags);
      if (options.paperReader === 'model') {
        await checkModelPdfReading(paper, config.roles.planner.models[0]);
      }
      return runPaper(
        {
          paperPath: paper,
          paperReader: options.paperReader,
          sandbox: options.sandbox,
          gpu: options.gpu ?? config.gpu,
          network: options.network ?? false,
          selfRefine: options.selfRefine ?? false,
          selfCheck: options.selfCheck,
          repairSteps: options.repairSteps,
          skipVerify: !options.verify,
          smokeTimeoutS: options.smokeTimeoutSeconds,
          paperMaxChars: options.paperMaxChars,
          ...(options.python === undefined ? {} : { python: options.python }),
          ...(options.out === undefined ? {} : { outDir: options.out }),
        },
        { ...host, ...(options.root === undefined ? {} : { runsRoot: options.root }) },
        { caller: (run) => createRunModelCaller(flags, run), specs: modelSpecsOf(config) },
      );
    });
  });
}

/** The table printed after a paper run (not with --json, whose events say it all). */
function outcomeTable(outcome: PaperOutcome): string {
  const report = outcome.report;
  return renderTable([
    ['repository', report.repository],
    ['entry point', report.entryPoint],
    [
      'files',
      `${report.files.length} (${report.files.reduce((sum, file) => sum + file.lines, 0)} lines)`,
    ],
    ['verify', `${report.verify.ok ? 'runs' : 'does not run'}: ${report.verify.summary}`],
    ['model calls', String(report.totals.calls)],
    [
      'tokens',
      `${report.totals.inputTokens} in (${report.totals.cachedInputTokens} cached), ${report.totals.outputTokens} out`,
    ],
    ['cost', money(report.totals.costUsd)],
    ['report', outcome.reportPath],
    ['run', outcome.run.dir],
  ]);
}

/**
 * Runs a paper run (`codify paper`, or `codify resume` of a paper run) to its end: Ctrl-C
 * or SIGTERM aborts the host's signal, so the work in flight is cancelled and the run ends
 * `stopped` (exit 130 or 143, and `codify resume` continues it); the outcome table; the
 * exit code from the run's end or the error's own.
 */
export async function reportPaperRun(
  command: string,
  options: { json?: boolean },
  renderer: TerminalRenderer,
  work: (host: RunHost) => Promise<PaperOutcome>,
): Promise<void> {
  const interrupt = stopOnInterrupt(command);
  let runDir: string | undefined;
  try {
    const outcome = await work({
      argv: process.argv.slice(2),
      sinks: [renderer],
      signal: interrupt.signal,
      onRun: (run) => {
        runDir = run.dir;
      },
    });
    renderer.finish();
    if (options.json !== true) process.stdout.write(`${outcomeTable(outcome)}\n`);
    process.exitCode = outcome.completed ? exitCodes.ok : exitCodes.runFailed;
  } catch (error) {
    renderer.finish();
    reportError(command, error, { runDir });
  } finally {
    interrupt.dispose();
  }
}
