import type { Command } from 'commander';
import { resumeImplement } from '../../agent/resume.js';
import { addModelOptions, modelFlagsFrom } from '../../config/model-flags.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { interactiveFeedback } from './ask-in-terminal.js';
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
      'continue an implement run that was killed or stopped, after its last completed step',
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
