import type { ExperimentRecord } from '../../../src/explore/experiments/run-experiments.js';

/** `0.9938 vs the baseline's 0.6605 (+0.3333)`, or why there is no number. */
export function measured(record: ExperimentRecord): string {
  const metric = record.metric;
  if (metric === undefined || metric.value === null) return 'not measured';
  const baseline = metric.baseline === null ? '' : ` vs the baseline's ${String(metric.baseline)}`;
  const gain =
    metric.improvement === null
      ? ''
      : ` (${metric.improvement >= 0 ? '+' : ''}${String(metric.improvement)})`;
  return `${metric.name} ${String(metric.value)}${baseline}${gain}`;
}
