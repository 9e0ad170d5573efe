import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { startRunProcess } from '../../launch/start-run-process.js';
import { modeArguments } from '../../modes/mode-arguments.js';
import type { McpContext } from '../mcp-context.js';
import { modeInputShape } from '../mode-input.js';
import { guarded, jsonResult } from '../tool-result.js';

/** `start_paper`: starts `codify paper` in the background and returns its run id. */
export function registerStartPaperTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'start_paper',
    {
      title: 'Start a paper run',
      description:
        'Starts `codify paper PAPER`: plans, analyzes and generates a repository from the paper, then runs its smoke configuration and repairs it. Returns the run id as soon as the run exists; the run goes on in the background. Follow it with run_status, read the repository with read_run_file (repo/…).',
      inputSchema: modeInputShape('paper'),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input) =>
      guarded(async () =>
        jsonResult(
          await startRunProcess(modeArguments('paper', input, context.cwd), {
            runsRoot: context.runsRoot,
            cwd: context.cwd,
            launcher: 'mcp',
          }),
        ),
      ),
  );
}
