import { formatCost, formatTokens } from '../../../src/cli/render/format-values.js';
import type { CodifyEvent, RunTotals } from '../../../src/runs/events.js';
import { totalsOf } from '../../../src/runs/run-totals.js';
import { plural } from './format-number.js';

/**
 * The totals a run's page shows: the ones its run-end recorded, which the runs list shows
 * and an evaluation's report adds up (for an evaluation: every run it made, not only the
 * calls in its own log); before the end, the log's own so far.
 */
export function runTotals(events: readonly CodifyEvent[]): RunTotals {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'run-end') {
      if (event.totals !== undefined) return event.totals;
      break;
    }
    if (event?.type === 'run-start') break;
  }
  return totalsOf(events);
}

/** `1 step · 14 model calls · 58.1k tokens · $0.0123`, as the header's facts. */
export function totalsFacts(totals: RunTotals): string[] {
  return [
    plural(totals.steps, 'step'),
    plural(totals.llmCalls, 'model call'),
    `${formatTokens(totals.inputTokens + totals.outputTokens)} tokens`,
    formatCost(totals),
  ];
}

/** Whether the page still follows the run's log: only while the run may write to it. */
export function followsLog(status: string): boolean {
  return status === 'running' || status === 'connecting';
}
