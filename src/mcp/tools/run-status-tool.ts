import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpContext } from '../mcp-context.js';
import { runStatus } from '../run-status.js';
import { findRunInRoot } from '../runs-folder.js';
import { guarded, jsonResult } from '../tool-result.js';

/** `run_status`: one run's status, spending, current step and, once ended, its outcome. */
export function registerRunStatusTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'run_status',
    {
      title: 'Follow a run',
      description:
        'Status of a run: running, completed, failed, stopped, budget-exhausted or killed; steps, model calls, tokens and cost so far; the current stage, step and action; once finished, its outcome: for implement runs the outcome, whether the final script ran, the metric against the starter and the final script; for paper runs the repository and whether it runs; waiting: the requests of a live interactive run that wait for answer_feedback. Poll it to follow a run.',
      inputSchema: {
        run: z.string().min(1).describe('the run id, a unique part of it, or "last"'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(() =>
        Promise.resolve(jsonResult(runStatus(findRunInRoot(input.run, context.runsRoot)))),
      ),
  );
}
