import { type Command, InvalidArgumentError, Option } from 'commander';
import { modelSpecsOf } from '../../config/model-specs.js';
import { addModelOptions, modelFlagsFrom } from '../../config/model-flags.js';
import type { PaperReader } from '../../reader/paper-reader.js';
import {
  checkModelPdfReading,
  checkPdfForModelReader,
} from '../../reader/read-paper-with-model.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { reportError } from '../report-error.js';
import { runPaper, type PaperOutcome } from '../../repo/run-paper.js';
import { paperReaderOption } from './read.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import type { RunHost } from '../../runs/run-host.js';
import { createTerminalRenderer, type TerminalRenderer } from '../render/terminal-renderer.js';
import { stopOnInterrupt } from '../interrupt.js';
import { renderTable } from '../render/render-table.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';

interface PaperCommandOptions {
  out?: string;
  selfRefine?: boolean;
  repairSteps: number;
  verify: boolean;
  smokeTimeout: number;
  paperMaxChars: number;
  python?: string;
  sandbox: 'bubblewrap' | 'none';
  gpu?: boolean;
  network?: boolean;
  json?: boolean;
  root?: string;
  paperReader: PaperReader;
}

function wholeNumber(flag: string, minimum: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < minimum) {
      throw new InvalidArgumentError(`${flag} expects a whole number ≥ ${minimum}`);
    }
    return number;
  };
}

const money = (cost: number | null) => (cost === null ? 'unknown' : `$${cost.toFixed(4)}`);

/** `codify paper PAPER`: a paper in, a git repository that runs (or says plainly why not) out. */
export function registerPaperCommand(program: Command): void {
  const command = program
    .command('paper')
    .description(
      'turn a paper (PDF, LaTeX, Markdown or text) into a repository: plan, analyze, generate, then run and repair it',
    )
    .argument('<paper>', 'the paper: .pdf, .tex (or a folder with a main .tex), .md or .txt')
    .option('--out <dir>', 'write the repository here (new or empty folder); default <run>/repo')
    .option('--self-refine', 'critique and revise the plan and design before generating code')
    .option(
      '--repair-steps <n>',
      'agent steps for repairing a failing smoke run (0: no repair)',
      wholeNumber('--repair-steps', 0),
      15,
    )
    .option('--no-verify', 'stop after writing the repository, without the smoke run')
    .option(
      '--smoke-timeout <s>',
      'time limit of each smoke run, in seconds',
      wholeNumber('--smoke-timeout', 1),
      300,
    )
    .option(
      '--paper-max-chars <n>',
      'paper characters given to prompts before sections are summarized',
      wholeNumber('--paper-max-chars', 1000),
      60_000,
    )
    .option('--python <path>', 'the Python interpreter for the smoke run')
    .addOption(
      new Option('--sandbox <kind>', 'where generated code runs')
        .choices(['bubblewrap', 'none'])
        .default('bubblewrap'),
    )
    .option('--gpu', 'pass NVIDIA devices into the sandbox (default: "gpu" in codify.config.json)')
    .option('--no-gpu', 'run on the CPU even when codify.config.json sets "gpu": true')
    .option(
      '--network',
      'let the smoke run, the tests and repair reach the network (e.g. to fetch data); default: offline',
    )
    .addOption(paperReaderOption())
    .option('--root <dir>', 'folder for run folders (default: $CODIFY_RUNS_DIR or ./runs)')
    .option('--json', 'print every event as one JSON line');
  addModelOptions(command).action(async (paper: string, options: PaperCommandOptions) => {
    if (options.sandbox === 'none' && !options.json) process.stderr.write(`${noSandboxWarning}\n`);
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options as unknown as Record<string, unknown>);
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
          repairSteps: options.repairSteps,
          skipVerify: !options.verify,
          smokeTimeoutS: options.smokeTimeout,
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
