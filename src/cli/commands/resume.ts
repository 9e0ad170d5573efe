import type { Command } from 'commander';
import { resumeAgent } from '../../agent/resume.js';
import { addModelOptions, modelFlagsFrom } from '../../config/model-flags.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { interactiveFeedback } from './ask-in-terminal.js';
import { resumeExplorationCommand } from './explore.js';
import type { RunMode } from '../../runs/events.js';
import { findRun } from '../../runs/find-run.js';
import { readFirstEvent } from '../../runs/read-first-event.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { positiveNumber, reportRun } from './implement.js';

interface ResumeCommandOptions {
  maxSteps?: number;
  maxMinutes?: number;
  maxTokens?: number;
  maxCost?: number;
  interactive?: boolean;
  root?: string;
  json?: boolean;
}

/** `codify resume RUN [...]` */
export function registerResumeCommand(program: Command): void {
  const command = program
    .command('resume')
    .description(
      'continue a run that was killed or stopped: an implement run after its last completed step, an exploration after its finished stages',
    )
    .argument('<run>', 'the run: its folder, its id, a unique part of the id, or "last"')
    .option('--max-steps <n>', 'raise the step budget', positiveNumber('--max-steps', true))
    .option('--max-minutes <n>', 'raise the time budget', positiveNumber('--max-minutes', false))
    .option('--max-tokens <n>', 'raise the token budget', positiveNumber('--max-tokens', true))
    .option('--max-cost <usd>', 'raise the cost budget', positiveNumber('--max-cost', false))
    .option('--interactive', 'pause after every step: approve, comment or stop')
    .option('--root <dir>', 'folder holding the runs (default: $CODIFY_RUNS_DIR or ./runs)')
    .option('--json', 'print every event as one JSON line, then the result');
  addModelOptions(command).action(async (reference: string, options: ResumeCommandOptions) => {
    const flags = modelFlagsFrom(options as unknown as Record<string, unknown>);
    if (modeOf(reference, options.root) === 'explore') {
      await resumeExplorationCommand(reference, options, flags);
      return;
    }
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const agent = {
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.maxMinutes === undefined ? {} : { maxMinutes: options.maxMinutes }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.maxCost === undefined ? {} : { maxCostUsd: options.maxCost }),
      ...(options.interactive === undefined ? {} : { interactive: options.interactive }),
    };
    await reportRun('resume', options, renderer, (signal) => {
      // Bad model flags or missing API keys stop the command before a run folder is made.
      loadModelSetup(flags);
      return resumeAgent(reference, {
        // A replayed run continues at the call after those its completed steps made.
        models: (run, resumed) => createRunModelCaller(flags, run, resumed.completedCalls),
        argv: process.argv.slice(2),
        sinks: [renderer],
        signal,
        ...(Object.keys(agent).length === 0 ? {} : { agent }),
        // Asked only when the run is interactive (its own setting or --interactive now).
        feedback: interactiveFeedback(),
        ...(options.root === undefined ? {} : { runsRoot: options.root }),
      });
    });
  });
}

/** The mode of the run a reference names; undefined when it names none (reported later). */
function modeOf(reference: string, root: string | undefined): RunMode | undefined {
  try {
    const first = readFirstEvent(findRun(reference, resolveRunsRoot(root)));
    return first?.type === 'run-start' ? first.mode : undefined;
  } catch {
    return undefined;
  }
}
