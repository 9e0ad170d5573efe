/**
 * Every recorded session (examples/recordings/*.jsonl), by mode: the prompt characters
 * sent, the characters that repeat an earlier call's prefix, the share a prefix cache could
 * serve (prefix-caching providers, and Anthropic with codify's marks), the tokens, and for
 * the agent the planner prompt at each step with the part no cache serves.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  billedChars,
  callSizes,
  readRecording,
  type CallSize,
  type RecordedCall,
} from './lib/prompt-sizes.js';
import { median } from './lib/median.js';

const folder = resolve(fileURLToPath(import.meta.url), '../../examples/recordings');

interface Recorded extends RecordedCall {
  usage?: { inputTokens: number; outputTokens: number };
}

/** The mode a session belongs to, from its file name (the recordings' README names them so). */
export function modeOf(file: string): string {
  if (file.startsWith('paper-')) return 'paper';
  if (file.startsWith('judge-')) return 'eval judge';
  if (file.startsWith('explore-')) return 'explore';
  return 'implement';
}

export interface SessionFigures {
  calls: number;
  chars: number;
  sharedPrefix: number;
  marked: number;
  /** Input billed at Anthropic's rates, in base-rate characters (see billedChars). */
  billed: number;
  tokens: number;
  /** Planner calls in order: characters sent and characters behind a cache mark. */
  planner: { chars: number; uncached: number }[];
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const sent = (size: CallSize) => size.systemChars + size.messageChars;

export function sessionFigures(calls: Recorded[]): SessionFigures {
  const sizes = callSizes(calls);
  return {
    calls: calls.length,
    chars: sum(sizes.map(sent)),
    sharedPrefix: sum(sizes.map((size) => size.sharedPrefixChars)),
    marked: sum(sizes.map((size) => size.markedCacheChars)),
    billed: billedChars(sizes),
    tokens: sum(
      calls.map((call) => (call.usage?.inputTokens ?? 0) + (call.usage?.outputTokens ?? 0)),
    ),
    planner: sizes
      .filter((size) => size.label === 'planner')
      .map((size) => ({ chars: sent(size), uncached: sent(size) - size.markedCacheChars })),
  };
}

const percent = (part: number, whole: number) =>
  `${((100 * part) / Math.max(1, whole)).toFixed(0).padStart(3)}%`;
const kb = (chars: number) => `${(chars / 1000).toFixed(1)} KB`;

/** The agent strategy's implement sessions (the others are named for their strategy). */
export const isAgentSession = (file: string): boolean =>
  modeOf(file) === 'implement' && !/-(single-call|prescribed-plan)\.jsonl$/.test(file);

export function runBench(): Promise<void> {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  const modes = [...new Set(files.map(modeOf))];
  for (const mode of modes) {
    console.log(`${mode}:`);
    for (const file of files.filter((name) => modeOf(name) === mode)) {
      const figures = sessionFigures(readRecording(join(folder, file)));
      console.log(
        `  ${file.replace(/\.jsonl$/, '').padEnd(30)} ${String(figures.calls).padStart(3)} calls ${kb(figures.chars).padStart(9)} sent, ${percent(figures.sharedPrefix, figures.chars)} an earlier prefix, ${percent(figures.marked, figures.chars)} behind a cache mark, billed as ${kb(figures.billed)}, ${(figures.tokens / 1000).toFixed(1)}k tokens`,
      );
      // Paper mode names every call's role planner; steps are the agent's.
      if (figures.planner.length > 0 && (mode === 'implement' || mode === 'explore')) {
        const steps = figures.planner
          .map((call, index) => `${index + 1}: ${kb(call.chars)} (${kb(call.uncached)} uncached)`)
          .join(', ');
        console.log(`    planner by step: ${steps}`);
      }
    }
    if (mode === 'implement') {
      const agentTokens = files
        .filter(isAgentSession)
        .map((file) => sessionFigures(readRecording(join(folder, file))).tokens);
      console.log(
        `  median tokens of the agent strategy's ${agentTokens.length} sessions: ${(median(agentTokens) / 1000).toFixed(1)}k (issue 16's target: at most 35k)`,
      );
    }
  }
  return Promise.resolve();
}
