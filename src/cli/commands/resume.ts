import type { Command } from 'commander';
import { resumeImplement } from '../../agent/resume.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { modelSpecsOf } from '../../config/model-specs.js';
import { UsageError } from '../../errors/codify-error.js';
import { resumePaper } from '../../repo/run-paper.js';
import type { RunMode } from '../../runs/events.js';
import { findRun } from '../../runs/find-run.js';
import { readFirstEvent } from '../../runs/read-first-event.js';
import type { Run } from '../../runs/run.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { interactiveFeedback } from './ask-in-terminal.js';
import { resumeExplorationCommand } from './explore.js';
import { reportRun } from './implement.js';
import { reportPaperRun } from './paper.js';
import { addModelOptions, budgetOption, jsonOption, runFolderOption } from '../options.js';

interface ResumeCommandOptions {
  maxSteps?: number;
  maxMinutes?: number;
  maxTokens?: number;
  maxCost?: number;
  interactive?: boolean;
  root?: string;
  json?: boolean;
}

/** The mode a RUN argument names; undefined when it names no run (the implement path says why). */
function modeOf(reference: string, root: string | undefined): RunMode | undefined {
  try {
    const first = readFirstEvent(findRun(reference, resolveRunsRoot(root)));
    return first?.type === 'run-start' ? first.mode : undefined;
  } catch {
    return undefined;
  }
}

/** Calls the run's earlier processes completed: a replay continues after them. */
const completedCalls = (run: Run) => run.earlier.filter((event) => event.type === 'llm-end').length;

/** `codify resume RUN [...]` */
export function registerResumeCommand(program: Command): void {
  const command = program
    .command('resume')
    .description(
      'continue a run that was killed, stopped or failed: an implement run after its last completed step, a paper run or an exploration after its finished stages',
    )
    .argument('<run>', 'the run: its folder, its id, a unique part of the id, or "last"')
    .addOption(budgetOption('maxSteps', 'raise the step budget'))
    .addOption(budgetOption('maxMinutes', 'raise the time budget'))
    .addOption(budgetOption('maxTokens', 'raise the token budget'))
    .addOption(budgetOption('maxCost', 'raise the cost budget'))
    .option('--interactive', 'pause after every step: approve, comment or stop')
    .addOption(runFolderOption('holding'))
    .addOption(jsonOption('every event as one JSON line, then the result'));
  addModelOptions(command).action(async (reference: string, options: ResumeCommandOptions) => {
    const flags = modelFlagsFrom(options as unknown as Record<string, unknown>);
    const mode = modeOf(reference, options.root);
    if (mode === 'explore') {
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
    if (mode === 'paper') {
      await reportPaperRun('resume', options, renderer, (host) => {
        // A paper run resumes with the settings it was started with; only models may change.
        if (Object.keys(agent).length > 0)
          throw new UsageError(
            '--max-steps, --max-minutes, --max-tokens, --max-cost and --interactive apply to implement runs; a paper run resumes with the settings it was started with',
          );
        const config = loadModelSetup(flags);
        return resumePaper(
          reference,
          { ...host, ...(options.root === undefined ? {} : { runsRoot: options.root }) },
          {
            caller: (run) => createRunModelCaller(flags, run, completedCalls(run)),
            specs: modelSpecsOf(config),
          },
        );
      });
      return;
    }
    await reportRun('resume', options, renderer, (signal) => {
      // Bad model flags or missing API keys stop the command before a run folder is made.
      loadModelSetup(flags);
      return resumeImplement(
        reference,
        {
          runsRoot: options.root,
          argv: process.argv.slice(2),
          sinks: [renderer],
          signal,
          // Asked only when the run is interactive (its own setting or --interactive now).
          feedback: interactiveFeedback(),
        },
        // A replayed run continues at the call after those of its history.
        (run, resumed) => createRunModelCaller(flags, run, resumed.completedCalls),
        Object.keys(agent).length === 0 ? {} : { agent },
      );
    });
  });
}
