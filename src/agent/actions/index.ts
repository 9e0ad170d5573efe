import { checkImplementation } from './check-implementation.js';
import { copyFile } from './copy-file.js';
import { editScript } from './edit-script.js';
import { editScriptWithContext } from './edit-script-with-context.js';
import { executeScript } from './execute-script.js';
import { finalAnswer } from './final-answer.js';
import { getCodeDiff } from './get-code-diff.js';
import { inspectScriptLines } from './inspect-script-lines.js';
import { listFiles } from './list-files.js';
import { reflection } from './reflection.js';
import { requestPlanningExpertHelp } from './request-planning-expert-help.js';
import type { ActionContext, ActionDefinition, ActionResult } from './types.js';
import { undoEditScript } from './undo-edit-script.js';
import { understandFile } from './understand-file.js';
import { understandFileWithCodeContext } from './understand-file-with-code-context.js';

/** Every action the agent may take, in the order the planner sees them. */
export const allActions: ActionDefinition[] = [
  listFiles,
  understandFile,
  understandFileWithCodeContext,
  inspectScriptLines,
  getCodeDiff,
  copyFile,
  editScript,
  editScriptWithContext,
  undoEditScript,
  executeScript,
  reflection,
  checkImplementation,
  requestPlanningExpertHelp,
  finalAnswer,
] as ActionDefinition[];

function key(name: string): string {
  // MLAgentBench writes "Edit Script (AI)"; the suffix names the same action.
  return name
    .toLowerCase()
    .replace(/\(\s*ai\s*\)/g, '')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The action a model named, ignoring case, spacing, underscores, stray punctuation and an
 * MLAgentBench-style "(AI)" suffix.
 */
export function findAction(name: string): ActionDefinition | undefined {
  const wanted = key(name);
  if (wanted === '') return undefined;
  return allActions.find((action) => key(action.name) === wanted);
}

/**
 * Runs the named action on raw model input; never throws. An unknown name becomes an
 * observation listing the actions there are.
 */
export async function invokeAction(
  name: string,
  input: unknown,
  context: ActionContext,
): Promise<ActionResult> {
  const action = findAction(name);
  if (action === undefined) {
    const names = allActions.map((candidate) => candidate.name).join(', ');
    const observation = `There is no action named "${name}". The actions are: ${names}.`;
    return { ok: false, observation, display: observation };
  }
  try {
    return await action.run(input, context);
  } catch (error) {
    // defineAction already catches; this guards actions written without it.
    const observation = `${action.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, observation, display: observation };
  }
}

export { defineAction, describeInputProblems } from './define-action.js';
export { fail, succeed, usageLine } from './action-result.js';
export type * from './types.js';
