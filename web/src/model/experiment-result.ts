import type { ExperimentRecord } from '../../../src/explore/experiments/run-experiments.js';

/** `0.9938 vs the baseline's 0.6605 (+0.3333)`, or why there is no number. */
export function measured(record: ExperimentRecord): string {
  const metric = record.metric;
  const seeds = metric?.seeds;
  if (metric !== undefined && seeds !== undefined) {
    // Each seed ran on its own: the mean is the figure, judged against its own spread.
    const runs = seeds.runs.length;
    const baseline = metric.baseline === null ? '' : ` vs the baseline's ${round(metric.baseline)}`;
    const verdict = seeds.beyondMargin ? 'beyond' : 'within';
    return `${metric.name} ${round(seeds.mean)} ± ${round(seeds.sd)} over ${runs} seed${runs === 1 ? '' : 's'}${baseline} (${seeds.improvement >= 0 ? '+' : ''}${round(seeds.improvement)}, ${verdict} the margin ${round(seeds.margin)})`;
  }
  if (metric === undefined || metric.value === null) return 'not measured';
  const baseline = metric.baseline === null ? '' : ` vs the baseline's ${String(metric.baseline)}`;
  const gain =
    metric.improvement === null
      ? ''
      : ` (${metric.improvement >= 0 ? '+' : ''}${String(metric.improvement)})`;
  return `${metric.name} ${String(metric.value)}${baseline}${gain}`;
}

const round = (value: number): string => String(Number(value.toPrecision(4)));
