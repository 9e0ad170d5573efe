import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { basename } from 'node:path';
import { z } from 'zod';
import { readEvents } from '../../runs/read-events.js';
import type { McpContext } from '../mcp-context.js';
import { budgetArguments, modelArguments, modelInputShape } from '../model-input.js';
import { findRunInRoot } from '../runs-folder.js';
import { startRunProcess } from '../../launch/start-run-process.js';
import { guarded, jsonResult } from '../tool-result.js';
import { alive } from '../stop-run.js';

const inputShape = {
  run: z.string().min(1).describe('the run id, a unique part of it, or "last"'),
  maxSteps: z.number().int().positive().optional().describe('raise the step budget'),
  maxMinutes: z.number().positive().optional().describe('raise the time budget'),
  maxTokens: z.number().int().positive().optional().describe('raise the token budget'),
  maxCost: z.number().positive().optional().describe('raise the cost budget'),
  ...modelInputShape,
};

type Input = z.infer<z.ZodObject<typeof inputShape>>;

/** Refuses a run that is still being recorded or has finished, or is not an implement, paper or explore run. */
function checkResumable(runDir: string, raisesBudget: boolean): void {
  const { events } = readEvents(runDir);
  const first = events.find((event) => event.type === 'run-start');
  if (
    first?.type !== 'run-start' ||
    (first.mode !== 'implement' && first.mode !== 'paper' && first.mode !== 'explore')
  ) {
    throw new Error('only implement, paper and explore runs can be resumed');
  }
  const last = events.findLast((event) => event.type === 'run-start' || event.type === 'run-end');
  // A stopped run (stop_run, Ctrl-C, an interactive stop) continues, and one that spent its
  // budget when a budget is raised; a completed or failed one does not.
  const continues =
    last?.type === 'run-end' &&
    (last.status === 'stopped' || (last.status === 'budget-exhausted' && raisesBudget));
  if (last?.type === 'run-end' && !continues)
    throw new Error(`the run has already ended (${last.status})`);
  if (last?.type === 'run-start' && last.pid !== undefined && alive(last.pid)) {
    throw new Error(`the run is still running (process ${last.pid}); stop it first`);
  }
}

function resumeArguments(runDir: string, input: Input): string[] {
  return ['resume', runDir, ...modelArguments(input), ...budgetArguments(input)];
}

/** `resume_run`: continues a killed or stopped implement, paper or explore run in the background. */
export function registerResumeRunTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'resume_run',
    {
      title: 'Resume a run',
      description:
        'Continues a killed or stopped implement run after its last completed step, or a paper run or an exploration after its last finished stage (with its own settings; no budgets), like `codify resume` (completed model calls are not asked again; a replay: model continues at the next call), or one that spent its budget when a budget (maxSteps, maxMinutes, maxTokens, maxCost) is raised. Give the models again. Returns once the run is going again; follow it with run_status.',
      inputSchema: inputShape,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input) =>
      guarded(async () => {
        const runDir = findRunInRoot(input.run, context.runsRoot);
        checkResumable(runDir, budgetArguments(input).length > 0);
        const started = await startRunProcess(resumeArguments(runDir, input), {
          runsRoot: context.runsRoot,
          cwd: context.cwd,
          resumes: runDir,
          launcher: 'mcp',
        });
        return jsonResult({ ...started, runId: basename(runDir) });
      }),
  );
}
