import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './mcp-context.js';
import { registerCheckTaskTool } from './tools/check-task-tool.js';
import { registerFeedbackTools } from './tools/feedback-tools.js';
import { registerListRunsTool } from './tools/list-runs-tool.js';
import { registerReadRunFileTool } from './tools/read-run-file-tool.js';
import { registerResumeRunTool } from './tools/resume-run-tool.js';
import { registerRunStatusTool } from './tools/run-status-tool.js';
import { registerStartExploreTool } from './tools/start-explore-tool.js';
import { registerStartImplementTool } from './tools/start-implement-tool.js';
import { registerStartPaperTool } from './tools/start-paper-tool.js';
import { registerStopRunTool } from './tools/stop-run-tool.js';

const instructions =
  'codify turns ML research into running code. check_task validates a task folder before spending anything; start_implement, start_paper and start_explore start a run and return its id at once; poll run_status until finished is true; stop_run ends a run, resume_run continues a stopped implement or paper run; a run started with interactive waits after each step: feedback_requests lists what it asks, answer_feedback answers; read_run_file reads result.json, the final script, the generated repository or the event log.';

/** codify's tools on one MCP server (the transport is the caller's). */
export function createCodifyMcpServer(context: McpContext, version: string): McpServer {
  const server = new McpServer({ name: 'codify', version }, { instructions });
  registerCheckTaskTool(server, context);
  registerStartImplementTool(server, context);
  registerStartPaperTool(server, context);
  registerStartExploreTool(server, context);
  registerRunStatusTool(server, context);
  registerStopRunTool(server, context);
  registerResumeRunTool(server, context);
  registerListRunsTool(server, context);
  registerReadRunFileTool(server, context);
  registerFeedbackTools(server, context);
  return server;
}
