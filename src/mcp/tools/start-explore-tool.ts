import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { startRunProcess } from '../../launch/start-run-process.js';
import { modeArguments } from '../../modes/mode-arguments.js';
import type { McpContext } from '../mcp-context.js';
import { modeInputShape } from '../mode-input.js';
import { guarded, jsonResult } from '../tool-result.js';

/** `start_explore`: starts `codify explore` in the background and returns its run id. */
export function registerStartExploreTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'start_explore',
    {
      title: 'Start an exploration',
      description:
        'Starts `codify explore PAPERS`: a problem analysis with quotes checked against the papers, idea cards, judge reviews and novelty verdicts, and (with run and code) experiments that implement and measure the chosen ideas. Returns the run id as soon as the run exists; the run goes on in the background. Follow it with run_status; read ideas.md, ideas.json and experiments.json with read_run_file.',
      inputSchema: modeInputShape('explore'),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input) =>
      guarded(async () =>
        jsonResult(
          await startRunProcess(modeArguments('explore', input, context.cwd), {
            runsRoot: context.runsRoot,
            cwd: context.cwd,
            launcher: 'mcp',
          }),
        ),
      ),
  );
}
