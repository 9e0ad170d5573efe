import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { basename } from 'node:path';
import { z } from 'zod';
import { answerFeedback, listFeedback } from '../../runs/feedback-answers.js';
import type { McpContext } from '../mcp-context.js';
import { findRunInRoot } from '../runs-folder.js';
import { guarded, jsonResult } from '../tool-result.js';

const runInput = z.string().min(1).describe('the run id, a unique part of it, or "last"');

const answerShape = {
  run: runInput,
  request: z.string().min(1).describe('the request id from feedback_requests, e.g. step-3'),
  decision: z
    .enum(['approve', 'comment', 'stop', 'pick', 'edit', 'answer'])
    .describe(
      'approve, comment or stop fit every request; pick, edit and answer fit requests of that kind',
    ),
  comment: z.string().min(1).optional().describe('for comment (required) and stop (optional)'),
  picked: z.array(z.string().min(1)).min(1).optional().describe('for pick: option ids'),
  text: z.string().min(1).optional().describe('for edit: the replacement text'),
  answers: z.array(z.string()).min(1).optional().describe('for answer: one per question, in order'),
};

type AnswerInput = z.infer<z.ZodObject<typeof answerShape>>;

/** The answer file's body for the tool's input; the schema in src/runs checks the rest. */
function answerBody(input: AnswerInput): Record<string, unknown> {
  const fields: Record<string, unknown> = { decision: input.decision };
  if (input.comment !== undefined) fields.comment = input.comment;
  if (input.picked !== undefined) fields.picked = input.picked;
  if (input.text !== undefined) fields.text = input.text;
  if (input.answers !== undefined) fields.answers = input.answers;
  return fields;
}

/**
 * `feedback_requests` and `answer_feedback`: an interactive run (started with
 * `interactive: true`, or `--interactive` in a terminal) asked through its run folder, so an
 * MCP client steers it the way the terminal and the web app do; the first answer stands.
 */
export function registerFeedbackTools(server: McpServer, context: McpContext): void {
  server.registerTool(
    'feedback_requests',
    {
      title: "List a run's questions",
      description:
        "The requests an interactive run has made (after each agent step: approve, comment or stop, or answer the planner's questions; explore gates: approve or edit the analysis, pick the ideas to run), oldest first, each with its answer once it has one. A request without an answer is waiting: answer it with answer_feedback.",
      inputSchema: {
        run: runInput,
        waiting: z.boolean().optional().describe('only the requests still waiting (default false)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(() => {
        const runDir = findRunInRoot(input.run, context.runsRoot);
        const entries = listFeedback(runDir).filter(
          (entry) => input.waiting !== true || entry.answer === undefined,
        );
        return Promise.resolve(jsonResult({ runId: basename(runDir), requests: entries }));
      }),
  );
  server.registerTool(
    'answer_feedback',
    {
      title: "Answer a run's question",
      description:
        'Answers a waiting request of an interactive run through its run folder, as the terminal and the web app do. approve goes on; comment goes on with the comment in the next planner prompt; stop ends the run (resume_run continues it); pick, edit and answer fit requests of that kind. Refused when the request is unknown, answered already (the first answer stands) or the answer does not fit it.',
      inputSchema: answerShape,
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    (input) =>
      guarded(() => {
        const runDir = findRunInRoot(input.run, context.runsRoot);
        const answer = answerFeedback(runDir, input.request, answerBody(input));
        return Promise.resolve(
          jsonResult({ runId: basename(runDir), request: input.request, answer }),
        );
      }),
  );
}
