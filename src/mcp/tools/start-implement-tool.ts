import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { McpContext } from '../mcp-context.js';
import { budgetArguments, modelArguments, modelInputShape } from '../model-input.js';
import { startRunProcess } from '../start-run-process.js';
import { guarded, jsonResult } from '../tool-result.js';

const inputShape = {
  task: z.string().min(1).describe('the task folder (absolute, or relative to the server folder)'),
  strategy: z.enum(['agent', 'prescribed-plan', 'single-call']).optional(),
  maxSteps: z.number().int().positive().optional().describe('step budget (default 50)'),
  maxMinutes: z.number().positive().optional().describe('wall-clock budget in minutes'),
  maxTokens: z.number().int().positive().optional().describe('token budget (input + output)'),
  maxCost: z.number().positive().optional().describe('cost budget in dollars'),
  python: z.string().min(1).optional().describe('the Python interpreter'),
  sandbox: z.enum(['bubblewrap', 'none']).optional(),
  gpu: z.boolean().optional().describe('pass NVIDIA devices into the sandbox'),
  interactive: z
    .boolean()
    .optional()
    .describe('pause for feedback_requests / answer_feedback (after each step, or at the gates)'),
  ...modelInputShape,
};

type Input = z.infer<z.ZodObject<typeof inputShape>>;

/** The `codify implement` command line for the tool's input. */
export function implementArguments(input: Input, cwd: string): string[] {
  const task = resolve(cwd, input.task);
  if (!existsSync(task)) throw new Error(`task folder not found: ${task}`);
  return [
    'implement',
    task,
    ...modelArguments(input),
    ...(input.strategy === undefined ? [] : ['--strategy', input.strategy]),
    ...budgetArguments(input),
    ...(input.python === undefined ? [] : ['--python', input.python]),
    ...(input.sandbox === undefined ? [] : ['--sandbox', input.sandbox]),
    ...(input.gpu === true ? ['--gpu'] : []),
    ...(input.interactive === true ? ['--interactive'] : []),
  ];
}

/** `start_implement`: starts `codify implement` in the background and returns its run id. */
export function registerStartImplementTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'start_implement',
    {
      title: 'Start an implement run',
      description:
        "Starts `codify implement TASK`: the research agent implements the task's methodology on its starter code, runs and measures it. Returns the run id as soon as the run exists; the run goes on in the background. Follow it with run_status, read its files with read_run_file.",
      inputSchema: inputShape,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input) =>
      guarded(async () =>
        jsonResult(
          await startRunProcess(implementArguments(input, context.cwd), {
            runsRoot: context.runsRoot,
            cwd: context.cwd,
          }),
        ),
      ),
  );
}
