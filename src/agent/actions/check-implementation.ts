import { z } from 'zod';
import { loadPrompt } from '../../prompts/load-prompt.js';
import type { ChatMessage } from '../../llm/types.js';
import { fail, succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';
import { parseJsonAnswer } from './json-answer.js';
import { changedLines } from './changed-lines.js';
import { localImports } from './local-imports.js';
import { material } from './material.js';
import { numberLines, splitLines } from './numbered-lines.js';
import { truncateMiddle } from './truncate-text.js';
import { diffLines } from 'diff';
import { callWorker } from './worker-call.js';

const optionalText = z
  .string()
  .nullish()
  .transform((value) =>
    value === null || value === undefined || value.trim() === '' ? undefined : value.trim(),
  );

export const implementationCheckSchema = z.object({
  subparts: z
    .array(
      z.object({
        name: z.string().trim().min(1),
        implemented: z.boolean(),
        lines: z
          .union([z.string(), z.number()])
          .nullish()
          .transform((value) =>
            value === null || value === undefined ? undefined : String(value),
          ),
        evidence: optionalText,
        code_to_change: optionalText,
        proposed_edit: optionalText,
      }),
    )
    .min(1, 'list at least one sub-part'),
});

export type ImplementationCheck = z.output<typeof implementationCheckSchema>;

/** The check as the model reads it: each sub-part, where it is, or what to change. */
export function renderCheck(scriptName: string, check: ImplementationCheck): string {
  const done = check.subparts.filter((subpart) => subpart.implemented).length;
  const lines = check.subparts.map((subpart, index) => {
    if (subpart.implemented) {
      const where =
        subpart.lines === undefined
          ? ''
          : ` at line${/^\d+$/.test(subpart.lines.trim()) ? '' : 's'} ${subpart.lines}`;
      return `${index + 1}. ${subpart.name}: implemented${where}.${subpart.evidence ? ` ${subpart.evidence}` : ''}`;
    }
    const parts = [`${index + 1}. ${subpart.name}: NOT implemented.`];
    if (subpart.evidence) parts.push(subpart.evidence);
    if (subpart.code_to_change) parts.push(`Change: ${subpart.code_to_change}.`);
    if (subpart.proposed_edit) parts.push(`Proposed edit: ${subpart.proposed_edit}`);
    return parts.join(' ');
  });
  return `Implementation check of ${scriptName}: ${done} of ${check.subparts.length} sub-parts implemented.\n${lines.join('\n')}`;
}

/**
 * The script numbered, each line new or changed against the starter marked `+`, and the
 * starter's removed lines listed after it (blank lines neither marked nor listed): each line shown once, instead of the listing
 * and a diff that repeats the changed lines.
 */
export function markedListing(starter: string, source: string, mark: boolean): string {
  const lines = splitLines(source);
  if (!mark) return numberLines(lines, 1);
  // A blank line is no change a reviewer checks (a diff often moves one with an insertion).
  const changed = new Set(
    changedLines(starter, source).filter((line) => (lines[line - 1] ?? '').trim() !== ''),
  );
  const width = String(lines.length).length;
  const listing = lines.map(
    (line, index) =>
      `${changed.has(index + 1) ? '+' : ' '} ${String(index + 1).padStart(width)}: ${line}`,
  );
  const removed = diffLines(starter, source)
    .filter((change) => change.removed)
    .flatMap((change) => splitLines(change.value))
    .filter((line) => line.trim() !== '');
  const summary =
    changed.size === 0 && removed.length === 0
      ? '(no changes against the starter code)'
      : `${changed.size} new or changed lines marked +; ${removed.length} starter lines removed${removed.length === 0 ? '.' : ':'}`;
  return [...listing, '', summary, ...removed.map((line) => `- ${line}`)].join('\n');
}

const usage = { script_name: 'methodology_implementation.py' };

export const checkImplementation = defineAction({
  name: 'Check Implementation',
  description:
    'Has a reviewer model check a script against the methodology (or the part you name), sub-part by sub-part: where each is implemented, or what to change.',
  pool: 'general',
  inputSchema: z.object({
    script_name: pathField,
    methodology_part: z.string().trim().min(1).optional(),
  }),
  usage,
  async run({ script_name, methodology_part }, context) {
    const { task } = context;
    const source = await context.workspace.read(script_name);
    const imported = (await localImports(context.workspace, source)).filter(
      (module) => module.name !== script_name,
    );
    const blocks = [
      material(
        methodology_part ? 'Methodology part to check' : 'Methodology',
        methodology_part ?? task.files.methodology,
      ),
      ...(task.files.pseudocode ? [material('Pseudocode', task.files.pseudocode)] : []),
      material(
        `${script_name} with line numbers${script_name === task.entrypoint ? ' (the starter code itself)' : ', new or changed lines against the starter code marked +'}`,
        truncateMiddle(
          markedListing(task.files.starterCode, source, script_name !== task.entrypoint),
          60_000,
        ),
      ),
      ...imported.map((module) =>
        material(
          `${module.name}, which ${script_name} imports (line numbers added)`,
          truncateMiddle(numberLines(splitLines(module.content), 1), 20_000),
        ),
      ),
    ];
    const messages: ChatMessage[] = [{ role: 'user', content: blocks.join('\n\n') }];
    let problem = '';
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const answer = await callWorker(context, {
        prompt: 'action-check-implementation',
        messages,
        expect:
          'a ```json block: {"subparts": [{name, implemented, lines, evidence, code_to_change, proposed_edit}]}',
        label: attempt === 1 ? 'check-implementation' : 'check-implementation retry',
      });
      const parsed = parseJsonAnswer(answer.text, implementationCheckSchema);
      if ('value' in parsed) return succeed(renderCheck(script_name, parsed.value));
      problem = parsed.problem;
      messages.push(
        { role: 'assistant', content: answer.text },
        { role: 'user', content: loadPrompt('action-check-implementation-retry', { problem }) },
      );
    }
    return fail(
      'Check Implementation',
      `the reviewer gave no usable answer twice (last problem: ${problem}); try again or check by reading the code`,
      usage,
    );
  },
});
