import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answerer, AnswerRequest } from '../../src/llm/answerer.js';

/** A task whose starter prints `accuracy: 0.5`; methods that add to it improve on it. */
export const starter = 'print("accuracy: 0.5")\n';
export const improved = 'print("accuracy: 0.9")\n';
export const crashing = 'raise SystemExit("the method crashed")\n';

/** A fresh folder holding one small real task (`toy`) and nothing else yet. */
export function makeEvalFolder(): { base: string; taskDir: string } {
  const base = mkdtempSync(join(tmpdir(), 'codify-eval-'));
  const taskDir = join(base, 'toy');
  mkdirSync(taskDir);
  writeFileSync(join(taskDir, 'methodology_description.txt'), 'Raise the accuracy.\n');
  writeFileSync(join(taskDir, 'starter_code.py'), starter);
  writeFileSync(
    join(taskDir, 'task.json'),
    JSON.stringify({
      name: 'toy',
      timeout_s: 60,
      metric: { name: 'accuracy', pattern: 'accuracy: ([0-9.]+)', goal: 'max' },
      // Its scripts have no randomness: every seed gives the same figure.
      seed: { env: 'SEED' },
    }),
  );
  return { base, taskDir };
}

export const codeAnswer = (code: string): string =>
  `Here is the script.\n\n\`\`\`python\n${code}\`\`\`\n`;

/** An answerer from a function of the request; usage is fixed so totals can be checked. */
export function scriptedAnswerer(
  answer: (request: AnswerRequest) => string | Promise<string>,
): Answerer & { requests: AnswerRequest[] } {
  const requests: AnswerRequest[] = [];
  return {
    remote: false,
    requests,
    async answer(request) {
      requests.push(request);
      return {
        text: await answer(request),
        usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0 },
        costUsd: 0.01,
      };
    },
  };
}

/** A planner answer in the agent's six fields. */
export function plannerAnswer(action: string, input: unknown): string {
  return `Reflection: going on
Research Plan and Status: 1. implement the method (in progress)
Fact Check: none yet
Thought: next step
Action: ${action}
Action Input: ${JSON.stringify(input)}`;
}
