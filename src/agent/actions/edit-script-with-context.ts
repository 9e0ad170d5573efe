import { z } from 'zod';
import { contextFileBlocks } from './context-files.js';
import { defineAction } from './define-action.js';
import { editFields } from './edit-script.js';
import { pathListField } from './input-fields.js';
import { performEdit } from './perform-edit.js';

const usage = {
  script_name: 'methodology_implementation.py',
  edit_instruction: 'Use load_dataset from data_utils.py instead of the inline CSV reading.',
  save_name: 'methodology_implementation.py',
  context_files: ['data_utils.py'],
};

export const editScriptWithContext = defineAction({
  name: 'Edit Script with Context',
  description:
    'Like Edit Script, but the editor also sees other files you name (modules, reference sub-part code) to get names and interfaces right.',
  pool: 'coding',
  inputSchema: z.object({ ...editFields, context_files: pathListField }),
  usage,
  async run(input, context) {
    const blocks = await contextFileBlocks(context.workspace, input.context_files);
    return performEdit(context, {
      actionName: 'Edit Script with Context',
      usage,
      prompt: 'action-edit-script-with-context',
      scriptName: input.script_name,
      instruction: input.edit_instruction,
      saveName: input.save_name,
      ...(input.start_line_number !== undefined ? { startLine: input.start_line_number } : {}),
      ...(input.end_line_number !== undefined ? { endLine: input.end_line_number } : {}),
      contextBlocks: blocks,
    });
  },
});
