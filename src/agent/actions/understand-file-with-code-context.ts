import { z } from 'zod';
import { succeed } from './action-result.js';
import { contextFileBlocks } from './context-files.js';
import { defineAction } from './define-action.js';
import { pathField, pathListField } from './input-fields.js';
import { understandFile } from './understand.js';
import { thingsField } from './understand-file.js';

export const understandFileWithCodeContext = defineAction({
  name: 'Understand File with Code Context',
  description:
    'Like Understand File, but the reader also sees other files you name (e.g. modules the file imports), to explain how they fit together.',
  pool: 'understanding',
  inputSchema: z.object({
    file_name: pathField,
    things_to_look_for: thingsField,
    context_files: pathListField,
  }),
  usage: {
    file_name: 'starter_code.py',
    things_to_look_for: 'how the training loop uses the data loader',
    context_files: ['data_utils.py'],
  },
  async run({ file_name, things_to_look_for, context_files }, context) {
    const blocks = await contextFileBlocks(context.workspace, context_files);
    const answer = await understandFile(context, {
      fileName: file_name,
      thingsToLookFor: things_to_look_for,
      contextBlocks: blocks,
      prompt: 'action-understand-file-with-code-context',
      label: 'understand-file-with-code-context',
    });
    return succeed(
      `About ${file_name} (with ${context_files.join(', ') || 'no context files'}):\n${answer}`,
    );
  },
});
