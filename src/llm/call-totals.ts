import type { CallTotals, ModelAnswer } from './types.js';

export type { CallTotals } from './types.js';

export const emptyTotals = (): CallTotals => ({
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
});

export function addAnswer(totals: CallTotals, answer: ModelAnswer): CallTotals {
  return {
    calls: totals.calls + 1,
    inputTokens: totals.inputTokens + answer.usage.inputTokens,
    outputTokens: totals.outputTokens + answer.usage.outputTokens,
    cachedInputTokens: totals.cachedInputTokens + answer.usage.cachedInputTokens,
    costUsd: totals.costUsd + (answer.costUsd ?? 0),
    unpricedCalls: totals.unpricedCalls + (answer.costUsd === null ? 1 : 0),
  };
}

/** `$0.0123`, `at least $0.0100 (2 calls of unknown price)`, or `unknown`. */
export function describeCost(totals: CallTotals): string {
  const dollars = `$${totals.costUsd.toFixed(4)}`;
  if (totals.unpricedCalls === 0) return dollars;
  if (totals.unpricedCalls === totals.calls) return 'unknown (no price for these models)';
  const calls = totals.unpricedCalls === 1 ? '1 call' : `${totals.unpricedCalls} calls`;
  return `at least ${dollars} (${calls} of unknown price)`;
}
