import { z } from 'zod';
import type { ActionDefinition, ActionResult } from '../../src/agent/actions/types.js';

const result = (observation: string, extra: Partial<ActionResult> = {}): ActionResult => ({
  ok: true,
  observation,
  display: observation,
  ...extra,
});

/** Small real actions over the real workspace, shaped like the fourteen in src/agent/actions. */
export const listFiles: ActionDefinition<{ dir_path: string }> = {
  name: 'List Files',
  description: 'Lists the files in a folder of the workspace.',
  pool: 'general',
  inputSchema: z.object({ dir_path: z.string() }),
  usage: { dir_path: 'a folder relative to the workspace, e.g. "."' },
  async run(input, context) {
    try {
      const entries = await context.workspace.list(input.dir_path);
      return result(entries.map((entry) => entry.path).join('\n'));
    } catch (error) {
      return { ok: false, observation: String(error), display: String(error) };
    }
  },
};

export const understandFile: ActionDefinition<{ file_name: string; things_to_look_for: string }> = {
  name: 'Read File',
  description: 'Reads a file and answers what to look for in it.',
  pool: 'understanding',
  inputSchema: z.object({ file_name: z.string(), things_to_look_for: z.string() }),
  usage: { file_name: 'a file', things_to_look_for: 'what to find' },
  async run(input, context) {
    const content = await context.workspace.read(input.file_name);
    return result(`${input.file_name} has ${content.split('\n').length} lines`);
  },
};

export const writeScript: ActionDefinition<{ script_name: string; content: string }> = {
  name: 'Write Script',
  description: 'Writes the whole content of a script.',
  pool: 'coding',
  inputSchema: z.object({ script_name: z.string(), content: z.string() }),
  usage: { script_name: 'a script', content: 'its new content' },
  async run(input, context) {
    let before = '';
    try {
      before = await context.workspace.read(input.script_name);
    } catch {
      before = '';
    }
    if (before === input.content) {
      return {
        ok: false,
        observation: 'The edit changes nothing; nothing was saved.',
        display: 'zero-diff edit',
      };
    }
    await context.workspace.write(input.script_name, input.content, 'Write Script');
    return result(`${input.script_name} saved`);
  },
};

export const finalAnswer: ActionDefinition<{ final_answer: string }> = {
  name: 'Final Answer',
  description: 'Ends the research with the final answer.',
  pool: 'general',
  inputSchema: z.object({ final_answer: z.string() }),
  usage: { final_answer: 'what was done' },
  run(input) {
    return Promise.resolve(result(`Final answer given: ${input.final_answer}`, { final: true }));
  },
};

export const echoLong: ActionDefinition<{ size: number }> = {
  name: 'Echo Long',
  description: 'Returns a long observation.',
  pool: 'general',
  inputSchema: z.object({ size: z.number() }),
  usage: { size: 100 },
  run(input) {
    return Promise.resolve(result(`start ${'x'.repeat(input.size)} end`));
  },
};

export const fakeActions: ActionDefinition[] = [
  listFiles,
  understandFile,
  writeScript,
  finalAnswer,
  echoLong,
] as ActionDefinition[];
