import { createInterface } from 'node:readline/promises';
import type { Feedback, StepSummary } from '../../agent/strategies/strategy.js';

function clip(text: string, limit: number): string {
  return text.length <= limit
    ? text
    : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

/**
 * Interactive mode in the terminal: shows the step just done and asks to approve (Enter),
 * comment (any text) or stop (`stop`, `s` or `q`).
 */
export async function askInTerminal(summary: StepSummary): Promise<Feedback> {
  const lines = [
    '',
    `── step ${summary.step}: ${summary.action}`,
    summary.thought === '' ? '' : `thought: ${clip(summary.thought, 600)}`,
    `input: ${clip(JSON.stringify(summary.input), 600)}`,
    `observation: ${clip(summary.observation, 1500)}`,
    '',
  ].filter((line, index) => line !== '' || index === 0 || index === 5);
  process.stderr.write(`${lines.join('\n')}\n`);
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (
      await reader.question('Enter to continue, a comment for the agent, or "stop": ')
    ).trim();
    if (answer === '') return { decision: 'approve' };
    if (['stop', 's', 'q', 'quit'].includes(answer.toLowerCase())) return { decision: 'stop' };
    return { decision: 'comment', comment: answer };
  } finally {
    reader.close();
  }
}
