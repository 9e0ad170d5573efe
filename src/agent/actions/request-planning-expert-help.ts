import { z } from 'zod';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { problemStatement } from '../../tasks/problem-statement.js';
import { fail, succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { material } from './material.js';

const usage = { question: 'My edit did not improve accuracy; what should I try next?' };

export const requestPlanningExpertHelp = defineAction({
  name: 'Request Planning Expert Help',
  description:
    'Asks a stronger planning model for advice, given the problem and your research log. Limited uses per run; use it when stuck.',
  pool: 'general',
  inputSchema: z.object({
    question: z.string({ error: 'ask a question' }).trim().min(1, 'ask a question'),
  }),
  usage,
  async run({ question }, context) {
    if (context.expertHelp.remaining <= 0) {
      return fail(
        'Request Planning Expert Help',
        'the limit of expert help for this run is reached (0 requests left); decide the next step yourself, e.g. with Reflection',
        usage,
      );
    }
    const log = context.researchLog().trim();
    const answer = await context.models.call({
      role: 'expert',
      system: loadPrompt('action-request-planning-expert-help'),
      messages: [
        {
          role: 'user',
          content: [
            material('Research problem', problemStatement(context.task)),
            material('Research log so far', log === '' ? '(empty)' : log),
            material('Question', question),
          ].join('\n\n'),
        },
      ],
      expect: 'advice: an ordered plan of next steps for the agent',
      label: 'request-planning-expert-help',
      ...(context.signal ? { signal: context.signal } : {}),
    });
    context.expertHelp.remaining -= 1;
    return succeed(
      `Expert advice (${context.expertHelp.remaining} requests left):\n${answer.text.trim()}`,
    );
  },
});
