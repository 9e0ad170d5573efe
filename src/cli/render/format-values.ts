import type { RunTotals } from '../../runs/events.js';

/** 950, 12.3k, 4.56M. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${trimZero((count / 1000).toFixed(count < 10_000 ? 2 : 1))}k`;
  return `${trimZero((count / 1_000_000).toFixed(2))}M`;
}

/** Dollars with four decimals below a dollar, two above. */
export function formatDollars(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/**
 * The cost of a set of calls: `$0.0123` when every price is known, `$0.0123+` when some are
 * not (a lower bound), `unknown` when none is, `$0` when no call was made.
 */
export function formatCost(
  totals: Pick<RunTotals, 'costUsd' | 'unpricedCalls' | 'llmCalls'>,
): string {
  if (totals.llmCalls === 0) return '$0';
  if (totals.unpricedCalls === totals.llmCalls) return 'unknown';
  return `${formatDollars(totals.costUsd)}${totals.unpricedCalls > 0 ? '+' : ''}`;
}

/** 850ms, 12.3s, 4m05s, 2h03m. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))}ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${trimZero(seconds.toFixed(1))}s`;
  const wholeSeconds = Math.floor(seconds);
  const minutes = Math.floor(wholeSeconds / 60);
  if (minutes < 60) return `${minutes}m${String(wholeSeconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** How long ago, coarsely: 45s, 12m, 5h, 3d. */
export function formatAge(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** Offset from the run's start: +00:07.3, +12:04.0, +1:02:03. */
export function formatOffset(milliseconds: number): string {
  const clamped = Math.max(0, milliseconds);
  const totalSeconds = Math.floor(clamped / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const twoDigits = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `+${hours}:${twoDigits(minutes)}:${twoDigits(seconds)}`;
  return `+${twoDigits(minutes)}:${twoDigits(seconds)}.${Math.floor((clamped % 1000) / 100)}`;
}

/** The first line of a text, shortened to a width with an ellipsis. */
export function firstLine(text: string, width = 120): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

function trimZero(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
