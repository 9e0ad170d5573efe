import type { ActionDefinition } from './actions/types.js';
import type { StepRecord } from './checkpoint.js';
import { plannerLog } from './planner-memory.js';
import { formatResearchLog } from './research-log.js';
import { describeResponseFormat } from './response-format.js';
import { loadPrompt } from '../prompts/load-prompt.js';

export interface PlannerPromptInput {
  step: number;
  problem: string;
  actions: readonly ActionDefinition[];
  researchLog: readonly string[];
  recentSteps: readonly StepRecord[];
  /** Steps, expert help, time, tokens or cost left; the last run's duration. */
  budgets: readonly string[];
  /** Guard notes and budget notices. */
  notes: readonly string[];
  comment: string | null;
  /** Describe the optional Questions field in the response format. */
  questions?: boolean;
}

/** The planner's list of actions: name, description, usage. */
export function describeActions(actions: readonly ActionDefinition[]): string {
  return actions
    .map(
      (action) =>
        `## ${action.name}\n${action.description}\nUsage:\nAction: ${action.name}\nAction Input: ${JSON.stringify(action.usage, null, 2)}`,
    )
    .join('\n\n');
}

function describeStep(record: StepRecord): string {
  return `## Step ${record.step}\n${record.answer}\n\nObservation:\n${record.observation}`;
}

/** The research log part of the prompt: each step once, older ones condensed. */
function plannerLogText(input: PlannerPromptInput): string {
  const shown = plannerLog(
    input.researchLog,
    input.recentSteps.map((record) => record.step),
  );
  if (shown.length === 0 && input.recentSteps.length > 0) {
    return '(nothing older: every step so far is shown in full below)';
  }
  return formatResearchLog(shown);
}

/**
 * The planner's request for one step. What stays the same for the whole run (the problem,
 * the actions, the response format) is the system prompt, byte-identical from step to step,
 * so a provider's prefix cache serves it; what changes (memory, budgets, notes, the step)
 * is the user message after it.
 */
export function plannerPrompt(input: PlannerPromptInput): { system: string; prompt: string } {
  const notes = input.notes.filter((note) => note.trim() !== '');
  const system = loadPrompt('agent-planner-system', {
    problem: input.problem.trim(),
    tools: describeActions(input.actions),
    format: describeResponseFormat(input.questions === true).trim(),
  });
  const prompt = loadPrompt('agent-planner', {
    researchLog: plannerLogText(input),
    recentSteps:
      input.recentSteps.length === 0
        ? '(none yet)'
        : input.recentSteps.map(describeStep).join('\n\n'),
    budgets: input.budgets.map((line) => `- ${line}`).join('\n'),
    notes:
      notes.length === 0 ? '' : `\n# Notes\n\n${notes.map((note) => `- ${note}`).join('\n')}\n`,
    comments:
      input.comment === null
        ? ''
        : `\n# Comment from the human supervising you (take it into account)\n\n${input.comment}\n`,
    step: String(input.step),
  });
  return { system, prompt };
}
