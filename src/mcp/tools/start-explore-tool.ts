import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { McpContext } from '../mcp-context.js';
import { modelArguments, modelInputShape } from '../model-input.js';
import { startRunProcess } from '../start-run-process.js';
import { guarded, jsonResult } from '../tool-result.js';

const path = (what: string) =>
  z.string().min(1).describe(`${what} (absolute, or relative to the server folder)`);

const inputShape = {
  papers: z
    .array(path('a paper: .pdf, .tex (or a folder with the main .tex), .md or .txt'))
    .min(1)
    .describe('the papers to build on, named P1, P2, … in the output'),
  notes: path("the researcher's notes: what to aim for, what to avoid").optional(),
  related: path(
    'related work: a folder of papers, a BibTeX file, or a text list of titles and abstracts',
  ).optional(),
  ideas: z.number().int().min(1).max(20).optional().describe('idea cards to write (default 5)'),
  reviewers: z.number().int().min(1).optional().describe('judge reviews per idea (default 1)'),
  refineRounds: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('rounds of revising each idea against its reviews (default 1)'),
  budgetMinutes: z
    .number()
    .positive()
    .optional()
    .describe('the minutes one experiment may take, which the plans must fit (default 10)'),
  literature: z
    .enum(['semantic-scholar', 'openalex', 'arxiv'])
    .optional()
    .describe('also check novelty against this literature service'),
  run: z
    .string()
    .regex(/^(top:\d+|\d+|I\d+(,I\d+)*)$/)
    .optional()
    .describe('run experiments for these ideas: top:K, K, or ids such as I1,I3 (needs code)'),
  code: path('prototype code for the experiments: a folder with a runnable baseline').optional(),
  maxSteps: z.number().int().positive().optional().describe('agent steps per experiment'),
  python: z.string().min(1).optional().describe('the Python interpreter for the experiments'),
  sandbox: z.enum(['bubblewrap', 'none']).optional(),
  gpu: z.boolean().optional().describe('plans may use a GPU, and experiments get it'),
  interactive: z
    .boolean()
    .optional()
    .describe('pause for feedback_requests / answer_feedback (after each step, or at the gates)'),
  ...modelInputShape,
};

type Input = z.infer<z.ZodObject<typeof inputShape>>;

/** The `codify explore` command line for the tool's input. */
export function exploreArguments(input: Input, cwd: string): string[] {
  if (input.run !== undefined && input.code === undefined) {
    throw new Error('run needs code: the prototype folder the experiments start from');
  }
  const values: [string, string | number | undefined][] = [
    ['--notes', input.notes === undefined ? undefined : resolve(cwd, input.notes)],
    ['--related', input.related === undefined ? undefined : resolve(cwd, input.related)],
    ['--ideas', input.ideas],
    ['--reviewers', input.reviewers],
    ['--refine-rounds', input.refineRounds],
    ['--budget', input.budgetMinutes],
    ['--literature', input.literature],
    ['--run', input.run],
    ['--code', input.code === undefined ? undefined : resolve(cwd, input.code)],
    ['--max-steps', input.maxSteps],
    ['--python', input.python],
    ['--sandbox', input.sandbox],
  ];
  return [
    'explore',
    ...input.papers.map((paper) => resolve(cwd, paper)),
    ...modelArguments(input),
    ...values.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)])),
    ...(input.gpu === true ? ['--gpu'] : []),
    ...(input.interactive === true ? ['--interactive'] : []),
  ];
}

/** `start_explore`: starts `codify explore` in the background and returns its run id. */
export function registerStartExploreTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'start_explore',
    {
      title: 'Start an exploration',
      description:
        'Starts `codify explore PAPERS`: a problem analysis with quotes checked against the papers, idea cards, judge reviews and novelty verdicts, and (with run and code) experiments that implement and measure the chosen ideas. Returns the run id as soon as the run exists; the run goes on in the background. Follow it with run_status; read ideas.md, ideas.json and experiments.json with read_run_file.',
      inputSchema: inputShape,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input) =>
      guarded(async () =>
        jsonResult(
          await startRunProcess(exploreArguments(input, context.cwd), {
            runsRoot: context.runsRoot,
            cwd: context.cwd,
          }),
        ),
      ),
  );
}
