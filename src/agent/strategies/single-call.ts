import { loadPrompt } from '../../prompts/load-prompt.js';
import { AgentModels } from '../agent-models.js';
import { emptyBudgetUsage } from '../budgets.js';
import { extractCodeBlock } from '../code-block.js';
import { taskMaterial } from '../task-material.js';
import { filesInStatement, problemStatement } from '../../tasks/problem-statement.js';
import type { StrategyContext, StrategyOutcome } from './strategy.js';

/**
 * The one prompt: the problem statement with the single-call "What to deliver", then the
 * task's files it does not already show (each input file once).
 */
async function singleCallPrompt(context: StrategyContext): Promise<string> {
  const { task } = context;
  const shown = new Set(filesInStatement(task));
  const others = task.inputFiles.filter((file) => !shown.has(file));
  return loadPrompt('strategy-single-call', {
    problem: problemStatement(task, { kind: 'single-call' }).trim(),
    files:
      others.length === 0
        ? ''
        : `\n# The task's other files\n\n${await taskMaterial(context.workspace, others)}\n`,
  });
}

/**
 * The single-call baseline: one model call given every input file once; the code block it
 * answers with becomes the output script (executed and measured by the final result).
 */
export async function runSingleCall(context: StrategyContext): Promise<StrategyOutcome> {
  const usage = structuredClone(context.checkpoint?.usage ?? emptyBudgetUsage());
  const started = Date.now();
  const models = new AgentModels(context.models, usage, {
    planning: context.options.planningTemperature,
    worker: context.options.workerTemperature,
  });
  const { task, run } = context;
  const end = (status: StrategyOutcome['status'], reason: string): StrategyOutcome => {
    usage.elapsedMs += Date.now() - started;
    return { status, reason, usage };
  };
  run.emit({ type: 'step-start', step: 1 });
  let text: string;
  try {
    const answer = await models.call({
      role: 'planner',
      level: 0,
      label: 'single call',
      expect: `the whole script ${task.output} in one python code block`,
      messages: [
        {
          role: 'user',
          content: await singleCallPrompt(context),
        },
      ],
    });
    text = answer.text;
  } catch (error) {
    usage.steps = 1;
    run.emit({ type: 'step-end', step: 1, action: 'single call' });
    if (context.signal?.aborted === true) return end('stopped', 'the run was interrupted');
    // The one call failed: the run fails as the agent's does on a model failure (exit code 5).
    throw error;
  }
  usage.steps = 1;
  const code = extractCodeBlock(text);
  if (code === undefined) {
    run.emit({ type: 'step-end', step: 1, action: 'single call' });
    return end('failed', 'the answer had no code block to use as the script');
  }
  await context.workspace.write(task.output, code, 'single-call answer');
  run.emit({
    type: 'artifact-write',
    path: task.output,
    kind: 'script',
    description: 'single-call answer',
  });
  run.emit({ type: 'step-end', step: 1, action: 'single call' });
  return end('completed', 'the single answer was written as the script');
}
