import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { runFolderOption } from '../options.js';
import { createCodifyMcpServer } from '../../mcp/codify-mcp-server.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';

interface McpCommandOptions {
  root?: string;
}

/** `codify mcp`: serves codify's tools over the Model Context Protocol on stdin/stdout. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve codify to MCP clients (other agents) over stdio')
    .addOption(runFolderOption('for'))
    .action(async (options: McpCommandOptions) => {
      const server = createCodifyMcpServer(
        { runsRoot: resolveRunsRoot(options.root), cwd: process.cwd() },
        program.version() ?? '0.0.0',
      );
      // stdout is the protocol channel from here on; messages for people go to stderr.
      await server.connect(new StdioServerTransport());
      process.stderr.write(
        `codify mcp: serving on stdio, runs in ${resolveRunsRoot(options.root)}\n`,
      );
    });
}
