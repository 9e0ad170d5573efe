import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ImplementResult } from '../../agent/final-result.js';
import { implement } from '../../agent/implement.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { RunStopped } from '../../errors/run-stopped.js';
import { reportError } from '../report-error.js';
import { strategyNames, type StrategyName } from '../../agent/strategies/strategy.js';
import { modelSpecsOf } from '../../config/model-specs.js';
import { addModelOptions, modelFlagsFrom } from '../../config/model-flags.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { stopOnInterrupt } from '../interrupt.js';
import { renderTable } from '../render/render-table.js';
import { createTerminalRenderer, type TerminalRenderer } from '../render/terminal-renderer.js';
import { interactiveFeedback } from './ask-in-terminal.js';

interface ImplementCommandOptions {
  strategy: StrategyName;
  maxSteps?: number;
  maxMinutes?: number;
  maxTokens?: number;
  maxCost?: number;
  interactive?: boolean;
  questions?: boolean;
  python?: string;
  sandbox: 'bubblewrap' | 'none';
  gpu?: boolean;
  repeats?: number;
  allowBrokenStarter?: boolean;
  root?: string;
  json?: boolean;
}

export function positiveNumber(flag: string, whole: boolean): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (
      value.trim() === '' ||
      !Number.isFinite(number) ||
      number <= 0 ||
      (whole && !Number.isInteger(number))
    ) {
      throw new InvalidArgumentError(
        `${flag} takes a ${whole ? 'whole ' : ''}number above 0 (got "${value}"), e.g. ${flag} ${whole ? '30' : '2.5'}`,
      );
    }
    return number;
  };
}

function money(value: number | null): string {
  return value === null ? 'unknown (no price for a model)' : `$${value.toFixed(4)}`;
}

const round = (value: number): string => String(Number(value.toPrecision(4)));

/** `0.9731 ± 0.0021 (5 runs)` for repeated runs, the plain value for one. */
function figure(value: number | null, sd: number | null, runs: number, missing: string): string {
  if (value === null) return missing;
  return runs > 1 && sd !== null ? `${round(value)} ± ${round(sd)} (${runs} runs)` : String(value);
}

/** The summary printed after an implement or resume run. */
export function resultTable(result: ImplementResult): string {
  const metric = result.metric;
  return renderTable([
    ['outcome', `${result.outcome}: ${result.reason}`],
    ['final script', result.finalScript ?? '(none written)'],
    [
      'ran',
      result.execution === null
        ? 'not executed'
        : result.ran
          ? 'yes'
          : `no (exit code ${String(result.execution.exitCode)}${result.execution.timedOut ? ', timed out' : ''})`,
    ],
    ...(metric === null
      ? []
      : [
          [
            metric.name,
            `${figure(metric.value, metric.sd, metric.values.length, 'not printed')} (starter: ${figure(metric.starter, metric.starterSd, metric.starterValues.length, 'unknown')}, goal ${metric.goal}${metric.improved === null ? '' : metric.improved ? ', improved' : ', not improved'}${metric.margin ? ` beyond the margin ${round(metric.margin)}` : ''})`,
          ] as [string, string],
        ]),
    ['lines edited', `+${result.linesEdited.added} -${result.linesEdited.removed} vs the starter`],
    ['steps', String(result.steps)],
    ['tokens', `${result.tokens.input} in, ${result.tokens.output} out`],
    ['cost', money(result.costUsd)],
    ['wall time', `${(result.wallTimeMs / 1000).toFixed(1)} s`],
    ['run', result.runDir],
  ]);
}

/** Exit code of a finished run: 0 when the final script ran, 1 otherwise. */
export function resultExitCode(result: ImplementResult, signal?: AbortSignal): number {
  if (result.outcome === 'stopped' && signal?.aborted === true)
    return RunStopped.from(signal).exitCode;
  return result.outcome !== 'failed' && result.ran ? exitCodes.ok : exitCodes.runFailed;
}

/**
 * Runs an implement or resume run and reports it: the result table (or its JSON) and the
 * exit code of its outcome, or the error and its exit code (README "Exit codes"); the
 * renderer is finished either way.
 */
export async function reportRun(
  command: string,
  options: { json?: boolean },
  renderer: TerminalRenderer,
  work: (signal: AbortSignal) => Promise<ImplementResult>,
): Promise<void> {
  const interrupt = stopOnInterrupt(command);
  try {
    const result = await work(interrupt.signal);
    renderer.finish();
    process.stdout.write(
      options.json === true ? `${JSON.stringify(result)}\n` : `${resultTable(result)}\n`,
    );
    process.exitCode = resultExitCode(result, interrupt.signal);
  } catch (error) {
    renderer.finish();
    reportError(command, error);
  } finally {
    interrupt.dispose();
  }
}

/** `codify implement TASK [...]` */
export function registerImplementCommand(program: Command): void {
  const command = program
    .command('implement')
    .description(
      "implement a task folder's methodology on its starter code with the research agent",
    )
    .argument(
      '<task>',
      'the task folder (methodology_description.txt + starter_code.py, or an MLAgentBench folder)',
    )
    .addOption(
      new Option('--strategy <name>', 'agent loop, or a baseline')
        .choices([...strategyNames])
        .default('agent'),
    )
    .option(
      '--max-steps <n>',
      'steps before a final answer is forced (default 50)',
      positiveNumber('--max-steps', true),
    )
    .option(
      '--max-minutes <n>',
      'wall-clock minutes before a final answer is forced',
      positiveNumber('--max-minutes', false),
    )
    .option(
      '--max-tokens <n>',
      'model tokens (input + output) before a final answer is forced',
      positiveNumber('--max-tokens', true),
    )
    .option(
      '--max-cost <usd>',
      'dollars before a final answer is forced',
      positiveNumber('--max-cost', false),
    )
    .option(
      '--interactive',
      "pause after every step: approve, comment, answer the planner's questions, or stop",
    )
    .option(
      '--questions',
      'let the planner ask questions (asked with --interactive, otherwise recorded in the run)',
    )
    .option(
      '--python <path>',
      'the Python interpreter (default: the first that imports what the task requires)',
    )
    .addOption(
      new Option('--sandbox <kind>', 'where scripts run')
        .choices(['bubblewrap', 'none'])
        .default('bubblewrap'),
    )
    .option('--gpu', 'pass NVIDIA devices into the sandbox (default: "gpu" in codify.config.json)')
    .option('--no-gpu', 'run on the CPU even when codify.config.json sets "gpu": true')
    .option(
      '--repeats <n>',
      'untraced runs of the starter and of the final script, compared by mean and spread (default 1)',
      positiveNumber('--repeats', true),
    )
    .option(
      '--allow-broken-starter',
      'start the agent even when the starter fails or prints no metric (default: stop before any model call)',
    )
    .option('--root <dir>', 'folder for run folders (default: $CODIFY_RUNS_DIR or ./runs)')
    .option('--json', 'print every event as one JSON line, then the result');
  addModelOptions(command).action(async (task: string, options: ImplementCommandOptions) => {
    if (options.sandbox === 'none' && options.json !== true)
      process.stderr.write(`${noSandboxWarning}\n`);
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options as unknown as Record<string, unknown>);
    await reportRun('implement', options, renderer, (signal) => {
      // Bad model flags or missing API keys stop the command before a run folder is made.
      const config = loadModelSetup(flags);
      return implement(
        {
          modelSpecs: modelSpecsOf(config),
          taskDir: task,
          strategy: options.strategy,
          sandbox: options.sandbox,
          gpu: options.gpu ?? config.gpu,
          repeats: options.repeats,
          python: options.python,
          allowBrokenStarter: options.allowBrokenStarter,
          agent: {
            maxSteps: options.maxSteps,
            maxMinutes: options.maxMinutes,
            maxTokens: options.maxTokens,
            maxCostUsd: options.maxCost,
            interactive: options.interactive ?? false,
            // Interactive runs can answer questions; the prompt offers them only then or when asked.
            questions: options.questions === true || options.interactive === true,
          },
        },
        {
          runsRoot: options.root,
          argv: process.argv.slice(2),
          sinks: [renderer],
          signal,
          feedback: options.interactive === true ? interactiveFeedback() : undefined,
        },
        (run) => createRunModelCaller(flags, run),
      );
    });
  });
}
