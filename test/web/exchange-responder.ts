// The test as the model of a run: `exchange:DIR` writes each request as files and waits for
// the answer file; this answers them in order (planner steps from a list, a one-line memory
// for the summarizer), so an interactive run can be driven step by step.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const listFilesStep = (step: number) =>
  [
    `Reflection: step ${step}: looking at the workspace.`,
    'Research Plan and Status:',
    '1. List the files (in progress).',
    'Fact Check: nothing confirmed yet.',
    'Thought: I look at the files first.',
    'Action: List Files',
    'Action Input: {"dir_path": "."}',
  ].join('\n');

export interface ExchangeResponder {
  /** The prompts sent to a role, in order. */
  prompts(role: string): string[];
  stop(): void;
}

/** Answers every request in `folder` as it appears: the planner always lists files. */
export function answerExchange(folder: string): ExchangeResponder {
  const answered = new Set<string>();
  let planned = 0;
  const timer = setInterval(() => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder).sort()) {
      const match = /^(\d{4,})-([a-z-]+)\.request\.json$/.exec(name);
      if (match === null || answered.has(name)) continue;
      answered.add(name);
      const role = match[2] ?? '';
      const text =
        role === 'planner' ? listFilesStep((planned += 1)) : `Step ${planned}: listed the files.`;
      const response = join(folder, `${match[1] ?? ''}-${role}.response.md`);
      writeFileSync(`${response}.tmp`, text);
      renameSync(`${response}.tmp`, response);
    }
  }, 50);
  return {
    prompts: (role) =>
      existsSync(folder)
        ? readdirSync(folder)
            .filter((name) => name.endsWith(`-${role}.prompt.md`))
            .sort()
            .map((name) => readFileSync(join(folder, name), 'utf8'))
        : [],
    stop: () => clearInterval(timer),
  };
}
