import { z } from 'zod';
import { diffStatistics, unifiedDiff } from '../../workspace/unified-diff.js';
import { errorMessage } from '../../workspace/errors.js';
import { fail } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';
import { splitLines } from './numbered-lines.js';

export const finalAnswer = defineAction({
  name: 'Final Answer',
  description:
    "Ends the run: names the script that implements the methodology (default: the task's output file) and summarizes what was done and measured.",
  pool: 'general',
  inputSchema: z.object({
    final_script: pathField.optional(),
    summary: z
      .string({ error: 'summarize what you implemented and how it performed' })
      .trim()
      .min(1, 'summarize what you implemented and how it performed'),
  }),
  usage: {
    final_script: 'methodology_implementation.py',
    summary: 'Implemented the methodology in methodology_implementation.py; accuracy 0.91 vs 0.85.',
  },
  async run({ final_script, summary }, { workspace, task }) {
    const script = final_script ?? task.output;
    const usage = {
      final_script: task.output,
      summary: 'what you implemented and how it performed',
    };
    let content: string;
    try {
      content = await workspace.read(script);
    } catch (error) {
      return fail(
        'Final Answer',
        `the final script is not usable: ${errorMessage(error)}. Write the implementation to ${task.output} (e.g. an Edit Script of the starter with save_name ${task.output}) or name the script that holds it in final_script`,
        usage,
      );
    }
    let comparison = '';
    try {
      const starter = await workspace.read(task.entrypoint);
      const diff = unifiedDiff(task.entrypoint, script, starter, content);
      const { added, removed } = diffStatistics(diff);
      comparison =
        diff === ''
          ? ` It is identical to ${task.entrypoint}.`
          : ` Against ${task.entrypoint}: ${added} lines added, ${removed} removed.`;
    } catch {
      comparison = '';
    }
    const observation = `Final answer accepted: ${script} (${splitLines(content).length} lines).${comparison}\nSummary: ${summary}`;
    return { ok: true, observation, display: observation, final: true };
  },
});
