import type { ActionDefinition } from './actions/types.js';
import type { StepRecord } from './checkpoint.js';
import { lastFoldedStep, plannerHistory } from './planner-memory.js';
import { describeResponseFormat } from './response-format.js';
import { loadPrompt } from '../prompts/load-prompt.js';

export interface PlannerPromptInput {
  step: number;
  problem: string;
  actions: readonly ActionDefinition[];
  researchLog: readonly string[];
  /** The latest steps; those after the last folded step are shown in full. */
  recentSteps: readonly StepRecord[];
  /** Steps kept in full at least (folded into the log this many at a time). */
  shortTermSteps: number;
  /** Steps, expert help, time, tokens or cost left; the last run's duration. */
  budgets: readonly string[];
  /** Guard notes and budget notices. */
  notes: readonly string[];
  comment: string | null;
  /** Describe the optional Questions field in the response format. */
  questions?: boolean;
  /** Shown before the budgets at this step only (the starter's listing at step 1). */
  firstStep?: string;
}

/** The planner's list of actions: name, description, and an example input on one line. */
export function describeActions(actions: readonly ActionDefinition[]): string {
  return actions
    .map(
      (action) =>
        `## ${action.name}\n${action.description}\nExample: Action Input: ${JSON.stringify(action.usage)}`,
    )
    .join('\n\n');
}

/** Edit instructions longer than this are not repeated when the step is shown again. */
export const shownInstructionChars = 400;

/**
 * The planner's answer as its later prompts show it: a long edit instruction is left out,
 * since the observation's diff shows what the edit did (each text once).
 */
function shownAnswer(record: StepRecord): string {
  const input = record.input;
  if (typeof input !== 'object' || input === null || !('edit_instruction' in input))
    return record.answer;
  const instruction = input.edit_instruction;
  if (typeof instruction !== 'string' || instruction.length <= shownInstructionChars)
    return record.answer;
  const at = record.answer.lastIndexOf('\nAction Input:');
  if (at === -1) return record.answer;
  const shown = {
    ...input,
    edit_instruction: `(${instruction.length} characters, not repeated here: the diff in the observation shows what the edit did)`,
  };
  return `${record.answer.slice(0, at)}\nAction Input: ${JSON.stringify(shown)}`;
}

function describeStep(record: StepRecord): string {
  return `## Step ${record.step}\n${shownAnswer(record)}\n\nObservation:\n${record.observation}`;
}

/**
 * The planner's request for one step. Each part comes after the parts that change less:
 * - `system`: what stays the same for the whole run (the problem, the actions, the response
 *   format), byte-identical from step to step;
 * - `blocks`: runs of user messages that only grow from step to step: the research log of
 *   the folded steps (a fixed heading, then one message per entry, see `plannerHistory`),
 *   then the steps since the last fold in full (a fixed heading, then one message per
 *   step), each left out while it has no entries. Each block of step N is a prefix of
 *   step N+1's, except when steps are folded (every `shortTermSteps` steps), so a
 *   provider's prefix cache serves them;
 * - `prompt`: what changes every step (budgets, notes, a comment, the step).
 * Anthropic gets a cache mark at the end of the system prompt and of each block.
 */
export function plannerPrompt(input: PlannerPromptInput): {
  system: string;
  blocks: string[][];
  prompt: string;
} {
  const notes = input.notes.filter((note) => note.trim() !== '');
  const system = loadPrompt('agent-planner-system', {
    problem: input.problem.trim(),
    tools: describeActions(input.actions),
    format: describeResponseFormat(input.questions === true).trim(),
  });
  const folded = lastFoldedStep(input.step - 1, input.shortTermSteps);
  const inFull = input.recentSteps.filter((record) => record.step > folded);
  const entries = plannerHistory(
    input.researchLog,
    inFull.map((record) => record.step),
  );
  // A block with nothing under its heading is left out (step 1, and the log until the
  // first fold): the model reads no empty sections, and step N's blocks stay a prefix of
  // step N+1's all the same, since a block only appears once it has its first entry.
  const blocks = [
    entries.length === 0 ? [] : [loadPrompt('agent-planner-history', {}).trim(), ...entries],
    inFull.length === 0
      ? []
      : [loadPrompt('agent-planner-recent', {}).trim(), ...inFull.map(describeStep)],
  ].filter((block) => block.length > 0);
  const prompt = loadPrompt('agent-planner', {
    first: input.firstStep === undefined ? '' : `${input.firstStep.trim()}\n\n`,
    budgets: input.budgets.map((line) => `- ${line}`).join('\n'),
    notes:
      notes.length === 0 ? '' : `\n# Notes\n\n${notes.map((note) => `- ${note}`).join('\n')}\n`,
    comments:
      input.comment === null
        ? ''
        : `\n# Comment from the human supervising you (take it into account)\n\n${input.comment}\n`,
    step: String(input.step),
  });
  return { system, blocks, prompt };
}
