import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { unansweredRequests } from '../../runs/feedback-answers.js';
import { listRuns } from '../../runs/list-runs.js';
import type { McpContext } from '../mcp-context.js';
import { guarded, jsonResult } from '../tool-result.js';

/** `list_runs`: the runs of the runs folder, newest first. */
export function registerListRunsTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'list_runs',
    {
      title: 'List runs',
      description:
        'The runs in the runs folder, newest first: id, mode, name, status, start time, steps, model calls, tokens and cost; for a live run, the requests waiting for an answer (answer_feedback).',
      inputSchema: {
        limit: z.number().int().positive().max(1000).default(30).describe('most runs to list'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(() => {
        const runs = listRuns(context.runsRoot)
          .reverse()
          .slice(0, input.limit)
          .map((summary) => ({
            id: summary.id,
            mode: summary.mode,
            name: summary.name,
            status: summary.status,
            startedAt: summary.startedAt,
            steps: summary.totals.steps,
            llmCalls: summary.totals.llmCalls,
            tokens: summary.totals.inputTokens + summary.totals.outputTokens,
            costUsd: summary.totals.costUsd,
            ...(summary.status === 'running' ? { waiting: unansweredRequests(summary.dir) } : {}),
          }));
        return Promise.resolve(jsonResult({ runsRoot: context.runsRoot, runs }));
      }),
  );
}
