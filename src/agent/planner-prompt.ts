import type { ActionDefinition } from './actions/types.js';
import type { StepRecord } from './checkpoint.js';
import { plannerHistory } from './planner-memory.js';
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

/**
 * The planner's request for one step, in three parts, each after the one that changes less:
 * - `system`: what stays the same for the whole run (the problem, the actions, the response
 *   format), byte-identical from step to step;
 * - `history`: the research log of the steps older than those shown in full, one text per
 *   entry after a fixed heading, only ever appended to (see `plannerHistory`), so the
 *   history of step N is a byte prefix of step N+1's;
 * - `prompt`: what changes every step (the recent steps in full, budgets, notes, the step).
 * A provider's prefix cache serves the first two; Anthropic gets a mark at the end of each.
 */
export function plannerPrompt(input: PlannerPromptInput): {
  system: string;
  history: string[];
  prompt: string;
} {
  const notes = input.notes.filter((note) => note.trim() !== '');
  const system = loadPrompt('agent-planner-system', {
    problem: input.problem.trim(),
    tools: describeActions(input.actions),
    format: describeResponseFormat(input.questions === true).trim(),
  });
  const history = [
    loadPrompt('agent-planner-history', {}).trim(),
    ...plannerHistory(
      input.researchLog,
      input.recentSteps.map((record) => record.step),
    ),
  ];
  const prompt = loadPrompt('agent-planner', {
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
  return { system, history, prompt };
}
