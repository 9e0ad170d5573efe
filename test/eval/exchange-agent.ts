// The test as the model of a `codify eval` child: each run's `exchange:DIR` gets its
// requests as files; this answers them with the two-step agent session of agent-script.ts,
// except those `hold` keeps unanswered (the run then waits on them until it is signalled).
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnswerRequest } from '../../src/llm/answerer.js';
import { agentAnswer } from './agent-script.js';

interface ExchangeRequest extends Pick<AnswerRequest, 'role' | 'label'> {
  /** Where the answer goes. */
  response: string;
}

export interface ExchangeAgent {
  stop(): void;
}

const requestFiles = (folder: string) =>
  existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.request.json')) : [];

/** Requests written to one run's exchange folder so far (answered or held). */
export const exchangeRequests = (root: string, folder: string): number =>
  requestFiles(join(root, folder)).length;

/** Answers every request that appears in the folders under `root` (one per run), every 50 ms. */
export function answerAsAgent(
  root: string,
  hold: (folder: string, request: ExchangeRequest) => boolean = () => false,
): ExchangeAgent {
  const answered = new Set<string>();
  const timer = setInterval(() => {
    if (!existsSync(root)) return;
    for (const name of readdirSync(root)) {
      const folder = join(root, name);
      for (const file of requestFiles(folder)) {
        const path = join(folder, file);
        if (answered.has(path)) continue;
        const request = JSON.parse(readFileSync(path, 'utf8')) as ExchangeRequest;
        if (hold(name, request)) continue;
        answered.add(path);
        const text = agentAnswer(request);
        writeFileSync(`${request.response}.tmp`, text);
        renameSync(`${request.response}.tmp`, request.response);
      }
    }
  }, 50);
  return { stop: () => clearInterval(timer) };
}
