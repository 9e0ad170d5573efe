import type { Command } from 'commander';
import type { ImplementResult } from '../../agent/final-result.js';
import { implement } from '../../agent/implement.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { RunStopped } from '../../errors/run-stopped.js';
import { reportError } from '../report-error.js';
import { modelSpecsOf } from '../../config/model-specs.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import type { ImplementSettings } from '../../modes/implement-settings.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { stopOnInterrupt } from '../interrupt.js';
import { addModeOptions } from '../mode-options.js';
import { addJsonOption, addRunFolderOption } from '../options.js';
import { renderTable } from '../render/render-table.js';
import { createTerminalRenderer, type TerminalRenderer } from '../render/terminal-renderer.js';
import { interactiveFeedback } from './ask-in-terminal.js';

/** What commander hands the action: the implement settings (less the task) and the output flags. */
type ImplementCommandOptions = Omit<ImplementSettings, 'task'> & { root?: string; json?: boolean };

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
    );
  addModeOptions(command, 'implement');
  addRunFolderOption(command, 'for');
  addJsonOption(command, 'every event as one JSON line, then the result');
  command.action(async (task: string, options: ImplementCommandOptions) => {
    if (options.sandbox === 'none' && options.json !== true)
      process.stderr.write(`${noSandboxWarning}\n`);
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options);
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
