import { loadPrompt } from '../../prompts/load-prompt.js';
import { diffStatistics, unifiedDiff } from '../../workspace/unified-diff.js';
import { errorMessage } from '../../workspace/errors.js';
import { fail, succeed } from './action-result.js';
import { extractCode } from './code-block.js';
import { applyEditBlocks, parseEditBlocks } from './edit-blocks.js';
import { material } from './material.js';
import { numberLines, splitLines } from './numbered-lines.js';
import { compilePython } from './python-compile.js';
import { truncateMiddle } from './truncate-text.js';
import type { ActionContext, ActionResult } from './types.js';
import { callWorker, userMessage } from './worker-call.js';

export interface EditRequest {
  actionName: string;
  usage: Record<string, unknown>;
  prompt: string;
  scriptName: string;
  instruction: string;
  saveName: string;
  startLine?: number;
  endLine?: number;
  contextBlocks: string[];
}

/** Answers the editor may give: its first, and one more after being told why it failed. */
const editAttempts = 2;

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The editor's answer read as the edited file: its edit blocks applied, or its code block. */
function editedText(
  answer: string,
  lines: readonly string[],
  range: { start: number; end: number } | undefined,
): { text: string } | { problem: string } {
  const blocks = range === undefined ? parseEditBlocks(answer) : undefined;
  if (blocks !== undefined) {
    const applied = applyEditBlocks(lines, blocks);
    return 'problem' in applied ? applied : { text: joinLines(applied.lines) };
  }
  const code = extractCode(answer);
  if (code === undefined) {
    return {
      problem:
        range === undefined
          ? 'the answer holds neither edit blocks nor a ```python block with the whole file'
          : 'the answer holds no ```python block',
    };
  }
  const replacement = splitLines(code.endsWith('\n') ? code : `${code}\n`);
  return {
    text: range
      ? joinLines([...lines.slice(0, range.start - 1), ...replacement, ...lines.slice(range.end)])
      : joinLines(replacement),
  };
}

/**
 * The worker's edit: the method, the context files, the numbered file and the instruction
 * in; the edited file out (its edit blocks applied, or the code it wrote), or why there is
 * none. An answer that cannot be applied is asked again once, with the reason.
 */
async function askForEdit(
  context: ActionContext,
  request: EditRequest,
  lines: readonly string[],
  range: { start: number; end: number } | undefined,
): Promise<string | { refusal: string }> {
  const scope = range
    ? loadPrompt('action-edit-scope-range', {
        start: String(range.start),
        end: String(range.end),
      }).trim()
    : loadPrompt('action-edit-scope-whole').trim();
  const fileBlock = material(
    `${request.scriptName} (${lines.length} lines)`,
    numberLines(lines, 1),
  );
  const messages = userMessage(
    [
      // The method the edit serves: an instruction alone leaves the worker guessing.
      context.methodology === undefined
        ? material('The method being implemented (for reference)', context.task.files.methodology)
        : material('The part of the method this edit implements', context.methodology),
      ...request.contextBlocks,
      fileBlock,
      material('Edit instruction', request.instruction),
    ].join('\n\n'),
  );
  let problem = '';
  let answerText = '';
  for (let attempt = 1; attempt <= editAttempts; attempt += 1) {
    const answer = await callWorker(context, {
      prompt: request.prompt,
      slots: { scope },
      messages,
      expect: range
        ? `a python code block replacing lines ${range.start}-${range.end}`
        : 'edit blocks (<<<<<<< SEARCH / ======= / >>>>>>> REPLACE), or the whole edited file in a python code block',
      label: request.actionName.toLowerCase().replace(/\s+/g, '-'),
    });
    answerText = answer.text;
    const edited = editedText(answer.text, lines, range);
    if ('text' in edited) return edited.text;
    problem = edited.problem;
    messages.push(
      { role: 'assistant', content: answer.text },
      { role: 'user', content: `Your edit could not be applied: ${problem}. Answer again.` },
    );
  }
  return {
    refusal: `the editor's answer could not be applied (${problem}), so nothing was saved. Its answer began: ${truncateMiddle(answerText.trim(), 600)}`,
  };
}

/**
 * Asks the worker for an edit, splices it in, and saves it only if it changes something
 * and compiles; every refusal is an observation showing why (and the failed edit).
 */
export async function performEdit(
  context: ActionContext,
  request: EditRequest,
): Promise<ActionResult> {
  const { workspace } = context;
  const refuse = (reason: string): ActionResult => fail(request.actionName, reason, request.usage);
  const target = await workspace.resolve(request.saveName);
  if (!target.ok) return refuse(target.reason);
  if (workspace.isReadOnly(target.relative)) {
    return refuse(
      `${target.relative} is a task input and read-only; give a new save_name, e.g. ${context.task.output}`,
    );
  }
  const original = await workspace.read(request.scriptName);
  const lines = splitLines(original);
  const ranged = request.startLine !== undefined || request.endLine !== undefined;
  const start = request.startLine ?? 1;
  const end = Math.min(request.endLine ?? lines.length, lines.length);
  if (ranged && (start > lines.length || end < start)) {
    return refuse(
      `${request.scriptName} has ${lines.length} lines, so lines ${start}-${request.endLine ?? end} cannot be edited; pick a range within 1-${lines.length}, or leave the line numbers out to edit the whole file`,
    );
  }
  const edited = await askForEdit(context, request, lines, ranged ? { start, end } : undefined);
  if (typeof edited !== 'string') return refuse(edited.refusal);

  let current: string | undefined;
  try {
    current = await workspace.read(target.relative);
  } catch {
    current = undefined;
  }
  const baseline = current ?? original;
  const baselineName = current === undefined ? request.scriptName : target.relative;
  const diff = unifiedDiff(baselineName, `${target.relative} (edited)`, baseline, edited);
  if (diff === '') {
    return refuse(
      `the edit changes nothing in ${baselineName}, so it was not saved; give a more specific edit_instruction`,
    );
  }
  if (target.relative.endsWith('.py')) {
    const compiled = await compilePython(context.interpreter, edited, target.relative);
    if (!compiled.ok) {
      return refuse(
        `the edited code does not compile, so nothing was saved.\nCompile error:\n${compiled.error}\nThe failed edit:\n${truncateMiddle(diff, 8_000)}`,
      );
    }
  }
  let saved;
  try {
    saved = await workspace.write(
      target.relative,
      edited,
      `${request.actionName}: ${truncateMiddle(request.instruction, 200)}`,
      // a new file made from another script: its diff is against that script
      current === undefined ? request.scriptName : undefined,
    );
  } catch (error) {
    return refuse(errorMessage(error));
  }
  const { added, removed } = diffStatistics(diff);
  const where = ranged ? `lines ${start}-${end} of ${request.scriptName}` : request.scriptName;
  return succeed(
    `Edited ${where} and saved it to ${target.relative} (version ${saved.version}): ${added} lines added, ${removed} removed. Check the diff; undo with Undo Edit Script if it is wrong.\n${truncateMiddle(diff, 12_000)}`,
    `Edited ${where} → ${target.relative} (+${added} -${removed})`,
  );
}
