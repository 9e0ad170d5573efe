import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { basename } from 'node:path';
import { z } from 'zod';
import type { McpContext } from '../mcp-context.js';
import { findRunInRoot } from '../runs-folder.js';
import { stopRun } from '../stop-run.js';
import { guarded, jsonResult } from '../tool-result.js';

/** `stop_run`: ends a running run's process; the run can be resumed later. */
export function registerStopRunTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'stop_run',
    {
      title: 'Stop a run',
      description:
        "Stops a running run with SIGTERM to its process. No model is asked anything more. An implement run cancels the step in flight and a paper run the work of its stage in flight, and each ends 'stopped' (an explore run at once); completed steps and finished stages are kept, and resume_run continues an implement or paper run after the last one.",
      inputSchema: {
        run: z.string().min(1).describe('the run id, a unique part of it, or "last"'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(async () => {
        const stopped = await stopRun(findRunInRoot(input.run, context.runsRoot));
        return jsonResult({ runId: basename(stopped.runDir), ...stopped });
      }),
  );
}
