import type { TaskMetric } from './types.js';

/** One reading of a task's metric from a script's output. */
export interface MetricReading {
  name: string;
  goal: TaskMetric['goal'];
  /** The text the first capture group matched. */
  raw: string;
  /** The number in `raw`, or null when it is not a finite number (e.g. "nan"). */
  value: number | null;
}

/**
 * Applies the metric's pattern to the output; the LAST match wins, because training scripts
 * print the metric every epoch and the final value is the one that counts. `^` and `$` match
 * at line boundaries. Returns undefined when the pattern never matches.
 */
export function parseMetric(output: string, metric: TaskMetric): MetricReading | undefined {
  const pattern = new RegExp(metric.pattern, 'gm');
  let last: RegExpExecArray | undefined;
  for (const match of output.matchAll(pattern)) last = match;
  if (!last) return undefined;
  const raw = last[1] ?? '';
  const value = Number.parseFloat(raw.trim());
  return {
    name: metric.name,
    goal: metric.goal,
    raw,
    value: Number.isFinite(value) ? value : null,
  };
}
