import type { CodifyEvent, RunTotals } from './events.js';

export const emptyTotals = (): RunTotals => ({
  steps: 0,
  llmCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
});

/** Adds one event to running totals (in place) and returns them. */
export function addToTotals(totals: RunTotals, event: CodifyEvent): RunTotals {
  if (event.type === 'step-end') totals.steps += 1;
  if (event.type === 'llm-end') {
    totals.llmCalls += 1;
    totals.inputTokens += event.usage.inputTokens;
    totals.outputTokens += event.usage.outputTokens;
    totals.cachedInputTokens += event.usage.cachedInputTokens ?? 0;
    if (event.costUsd === null) totals.unpricedCalls += 1;
    else totals.costUsd += event.costUsd;
  }
  return totals;
}

export function totalsOf(events: readonly CodifyEvent[]): RunTotals {
  const totals = emptyTotals();
  for (const event of events) addToTotals(totals, event);
  return totals;
}
