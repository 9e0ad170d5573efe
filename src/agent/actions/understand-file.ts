import { z } from 'zod';
import { succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';
import { understandFile as readWithWorker } from './understand.js';

export const thingsField = z
  .string({ error: 'say what to look for' })
  .trim()
  .min(1, 'say what to look for');

export const understandFile = defineAction({
  name: 'Understand File',
  description:
    'Has a reader model go through a whole file (any length, in chunks) and report what you ask about, with line numbers.',
  pool: 'understanding',
  inputSchema: z.object({ file_name: pathField, things_to_look_for: thingsField }),
  usage: {
    file_name: 'starter_code.py',
    things_to_look_for: 'where the model is defined and trained, and how accuracy is computed',
  },
  async run({ file_name, things_to_look_for }, context) {
    const answer = await readWithWorker(context, {
      fileName: file_name,
      thingsToLookFor: things_to_look_for,
      contextBlocks: [],
      prompt: 'action-understand-file',
      label: 'understand-file',
    });
    return succeed(`About ${file_name}:\n${answer}`);
  },
});
