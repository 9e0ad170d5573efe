import type { CodifyEvent } from '../../../src/runs/events.js';
import { totalsOf } from '../../../src/runs/run-totals.js';

/** What a run has used of its budgets. */
export interface BudgetUsed {
  steps: number;
  tokens: number;
  /** null when a call had no known price. */
  costUsd: number | null;
  elapsedMs: number;
}

/**
 * The agent's last budget tick where it wrote one; a run that never ticks (a single-call
 * strategy, or one stopped before its first step ended) is measured from its own log, so it
 * does not show "0 steps, 0 tokens" for a call it made.
 */
export function budgetUsed(events: readonly CodifyEvent[]): BudgetUsed {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'budget-update') {
      const { steps, tokens, costUsd, elapsedMs } = event;
      return { steps, tokens, costUsd, elapsedMs };
    }
  }
  const totals = totalsOf(events);
  const first = events[0];
  const last = events.at(-1);
  return {
    steps: totals.steps,
    tokens: totals.inputTokens + totals.outputTokens,
    costUsd: totals.unpricedCalls > 0 ? null : totals.costUsd,
    elapsedMs:
      first === undefined || last === undefined
        ? 0
        : Math.max(0, Date.parse(last.time) - Date.parse(first.time)),
  };
}
