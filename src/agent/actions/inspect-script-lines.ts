import { z } from 'zod';
import { fail, succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { lineNumberField, pathField } from './input-fields.js';
import { numberLines, splitLines } from './numbered-lines.js';

/** The most lines one inspection shows. */
export const inspectLineLimit = 100;

const usage = { script_name: 'starter_code.py', start_line_number: 1, end_line_number: 60 };

export const inspectScriptLines = defineAction({
  name: 'Inspect Script Lines',
  description: `Shows lines of a file with their line numbers, at most ${inspectLineLimit} at a time.`,
  pool: 'understanding',
  inputSchema: z.object({
    script_name: pathField,
    start_line_number: lineNumberField,
    end_line_number: lineNumberField,
  }),
  usage,
  async run({ script_name, start_line_number, end_line_number }, { workspace }) {
    const lines = splitLines(await workspace.read(script_name));
    const name = 'Inspect Script Lines';
    if (end_line_number < start_line_number) {
      return fail(
        name,
        `end_line_number ${end_line_number} is before start_line_number ${start_line_number}`,
        usage,
      );
    }
    if (lines.length === 0) return succeed(`${script_name} is empty (0 lines).`);
    if (start_line_number > lines.length) {
      return fail(
        name,
        `${script_name} has ${lines.length} lines, so it has no line ${start_line_number}`,
        usage,
      );
    }
    const last = Math.min(end_line_number, lines.length, start_line_number + inspectLineLimit - 1);
    const notes: string[] = [];
    if (end_line_number - start_line_number + 1 > inspectLineLimit) {
      notes.push(
        `at most ${inspectLineLimit} lines are shown at a time; ask for ${last + 1}-… next`,
      );
    }
    if (last === lines.length) notes.push('this is the end of the file');
    const header = `${script_name} has ${lines.length} lines; showing ${start_line_number}-${last}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}:`;
    return succeed(
      `${header}\n${numberLines(lines.slice(start_line_number - 1, last), start_line_number)}`,
    );
  },
});
