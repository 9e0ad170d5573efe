import { loadPrompt } from '../../prompts/load-prompt.js';
import { diffStatistics, unifiedDiff } from '../../workspace/unified-diff.js';
import { errorMessage } from '../../workspace/errors.js';
import { fail, succeed } from './action-result.js';
import { extractCode } from './code-block.js';
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

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * The worker's edit: the method, the context files, the numbered file and the instruction
 * in; the code block of its answer out, or why there is none.
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
  const answer = await callWorker(context, {
    prompt: request.prompt,
    slots: { scope },
    messages: userMessage(
      [
        // The method the edit serves: an instruction alone leaves the worker guessing.
        context.methodology === undefined
          ? material('The method being implemented (for reference)', context.task.files.methodology)
          : material('The part of the method this edit implements', context.methodology),
        ...request.contextBlocks,
        fileBlock,
        material('Edit instruction', request.instruction),
      ].join('\n\n'),
    ),
    expect: range
      ? `a python code block replacing lines ${range.start}-${range.end}`
      : `a python code block with the whole edited file`,
    label: request.actionName.toLowerCase().replace(/\s+/g, '-'),
  });
  const code = extractCode(answer.text);
  if (code === undefined) {
    return {
      refusal: `the editor's answer held no \`\`\`python code block, so nothing was saved. Its answer began: ${truncateMiddle(answer.text.trim(), 600)}`,
    };
  }
  return code;
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
  const code = await askForEdit(context, request, lines, ranged ? { start, end } : undefined);
  if (typeof code !== 'string') return refuse(code.refusal);
  const replacement = splitLines(code.endsWith('\n') ? code : `${code}\n`);
  const edited = ranged
    ? joinLines([...lines.slice(0, start - 1), ...replacement, ...lines.slice(end)])
    : joinLines(replacement);

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
