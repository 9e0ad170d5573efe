import type { Command } from 'commander';
import { resumeAgent } from '../../agent/resume.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { interactiveFeedback } from './ask-in-terminal.js';
import { reportRun } from './implement.js';
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

/** `codify resume RUN [...]` */
export function registerResumeCommand(program: Command): void {
  const command = program
    .command('resume')
    .description(
      'continue an implement run that was killed or stopped, after its last completed step',
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
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options as unknown as Record<string, unknown>);
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
