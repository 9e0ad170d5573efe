import { z } from 'zod';
import { problemStatement } from '../../tasks/problem-statement.js';
import { succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { material } from './material.js';
import { callWorker, userMessage } from './worker-call.js';

export const reflection = defineAction({
  name: 'Reflection',
  description:
    'Has a mentor model reflect on your research log so far: what worked, what is missing, what to do next.',
  pool: 'general',
  inputSchema: z.object({
    things_to_reflect_on: z
      .string({ error: 'say what to reflect on' })
      .trim()
      .min(1, 'say what to reflect on'),
  }),
  usage: { things_to_reflect_on: 'Why did accuracy not improve after adding dropout?' },
  async run({ things_to_reflect_on }, context) {
    const log = context.researchLog().trim();
    const answer = await callWorker(context, {
      prompt: 'action-reflection',
      messages: userMessage(
        [
          material('Research problem', problemStatement(context.task)),
          material('Research log so far', log === '' ? '(empty: no steps yet)' : log),
          material('Reflect on', things_to_reflect_on),
        ].join('\n\n'),
      ),
      expect: 'a short reflection: what was learned, what is missing, next steps',
      label: 'reflection',
    });
    return succeed(`Reflection:\n${answer.text.trim()}`);
  },
});
