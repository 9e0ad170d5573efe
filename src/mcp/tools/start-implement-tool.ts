import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { startRunProcess } from '../../launch/start-run-process.js';
import { modeArguments } from '../../modes/mode-arguments.js';
import type { McpContext } from '../mcp-context.js';
import { modeInputShape } from '../mode-input.js';
import { guarded, jsonResult } from '../tool-result.js';

/** `start_implement`: starts `codify implement` in the background and returns its run id. */
export function registerStartImplementTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'start_implement',
    {
      title: 'Start an implement run',
      description:
        "Starts `codify implement TASK`: the research agent implements the task's methodology on its starter code, runs and measures it. Returns the run id as soon as the run exists; the run goes on in the background. Follow it with run_status, read its files with read_run_file.",
      inputSchema: modeInputShape('implement'),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input) =>
      guarded(async () =>
        jsonResult(
          await startRunProcess(modeArguments('implement', input, context.cwd), {
            runsRoot: context.runsRoot,
            cwd: context.cwd,
            launcher: 'mcp',
          }),
        ),
      ),
  );
}
