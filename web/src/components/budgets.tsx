import {
  formatDollars,
  formatDuration,
  formatTokens,
} from '../../../src/cli/render/format-values.js';
import type { CodifyEvent } from '../../../src/runs/events.js';
import { budgetUsed } from '../model/budget-used.js';

/** The budgets an implement run was given (implement.json's `agent`), where set. */
export interface BudgetLimits {
  maxSteps?: number | null;
  maxMinutes?: number | null;
  maxTokens?: number | null;
  maxCostUsd?: number | null;
}

/** What the run has used of each budget (see budgetUsed). */
export function Budgets({
  events,
  limits,
}: {
  events: readonly CodifyEvent[];
  limits?: BudgetLimits;
}) {
  const used = budgetUsed(events);
  const exhausted = events.filter((event) => event.type === 'budget-exhausted');
  const rows: [string, string, number | undefined][] = [
    [
      'steps',
      `${used.steps}${limit(limits?.maxSteps, String)}`,
      ratio(used.steps, limits?.maxSteps),
    ],
    [
      'tokens',
      `${formatTokens(used.tokens)}${limit(limits?.maxTokens, formatTokens)}`,
      ratio(used.tokens, limits?.maxTokens),
    ],
    [
      'cost',
      `${used.costUsd === null ? 'unknown' : formatDollars(used.costUsd)}${limit(limits?.maxCostUsd, formatDollars)}`,
      ratio(used.costUsd ?? undefined, limits?.maxCostUsd),
    ],
    [
      'time',
      `${formatDuration(used.elapsedMs)}${limit(limits?.maxMinutes, (minutes) => formatDuration(minutes * 60_000))}`,
      ratio(
        used.elapsedMs,
        limits?.maxMinutes === null || limits?.maxMinutes === undefined
          ? undefined
          : limits.maxMinutes * 60_000,
      ),
    ],
  ];
  return (
    <div className="budgets">
      {rows.map(([name, text, fraction]) => (
        <div key={name} className="budget">
          <span className="budget-name">{name}</span>
          <span className="budget-value">{text}</span>
          {fraction !== undefined ? (
            <span className="budget-bar">
              <span style={{ width: `${Math.min(100, fraction * 100)}%` }} />
            </span>
          ) : null}
        </div>
      ))}
      {exhausted.map((event) =>
        event.type === 'budget-exhausted' ? (
          <p key={event.seq} className="error">
            {event.budget} budget exhausted: {event.message}
          </p>
        ) : null,
      )}
    </div>
  );
}

function limit<T>(value: T | null | undefined, format: (value: T) => string): string {
  return value === null || value === undefined ? '' : ` of ${format(value)}`;
}

function ratio(used: number | undefined, max: number | null | undefined): number | undefined {
  if (used === undefined || max === null || max === undefined || max <= 0) return undefined;
  return used / max;
}
