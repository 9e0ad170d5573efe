import type { TaskMetric } from './types.js';

/**
 * Where a task's metric is read, as models are told it: the pattern's own words where it has
 * them (explore's generated patterns, too long to read), else the regular expression.
 */
export function metricReading(metric: TaskMetric): string {
  return (
    metric.inWords ??
    `the number in the first\ngroup of the last match of the regular expression \`${metric.pattern}\` in the output`
  );
}
