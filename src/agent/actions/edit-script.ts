import { z } from 'zod';
import { defineAction } from './define-action.js';
import { lineNumberField, pathField } from './input-fields.js';
import { performEdit } from './perform-edit.js';

export const editInstructionField = z
  .string({ error: 'describe the edit' })
  .trim()
  .min(1, 'describe the edit');

export const editFields = {
  script_name: pathField,
  edit_instruction: editInstructionField,
  save_name: pathField,
  start_line_number: lineNumberField.optional(),
  end_line_number: lineNumberField.optional(),
};

const usage = {
  script_name: 'methodology_implementation.py',
  edit_instruction: 'Replace the linear model in train() with a two-layer MLP of hidden size 64.',
  save_name: 'methodology_implementation.py',
};

export const editScript = defineAction({
  name: 'Edit Script',
  description:
    'Has an editor model change a script as you instruct (the whole file, or only start_line_number-end_line_number) and saves it to save_name if it compiles; shows the diff.',
  pool: 'coding',
  inputSchema: z.object(editFields),
  usage,
  run(input, context) {
    return performEdit(context, {
      actionName: 'Edit Script',
      usage,
      prompt: 'action-edit-script',
      scriptName: input.script_name,
      instruction: input.edit_instruction,
      saveName: input.save_name,
      ...(input.start_line_number !== undefined ? { startLine: input.start_line_number } : {}),
      ...(input.end_line_number !== undefined ? { endLine: input.end_line_number } : {}),
      contextBlocks: [],
    });
  },
});
