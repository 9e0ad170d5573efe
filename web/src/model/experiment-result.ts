import type { ExperimentRecord } from '../../../src/explore/experiments/run-experiments.js';
import { formatNumber, formatSigned } from './format-number.js';

/**
 * What an experiment measured, the same wherever it is shown (the chart, the table, the
 * idea's card) and judged as the report judges it (verdictOf in src/explore): where the
 * plan's seeds ran, their mean against the baseline and beyond their margin; else the run's.
 */
export type ExperimentVerdict =
  'supported' | 'within-margin' | 'equal' | 'worse' | 'not-measured' | 'not-tested';

export interface ExperimentFigure {
  /** The seeds' mean where they ran, else the single run's value. */
  value: number | null;
  baseline: number | null;
  /** value − baseline, signed so that positive is better. */
  improvement: number | null;
  verdict: ExperimentVerdict;
  /** How many seeds the value is the mean of; absent for a single run. */
  seeds?: number;
}

export function experimentFigure(record: ExperimentRecord): ExperimentFigure {
  const metric = record.metric;
  const baseline = metric?.baseline ?? null;
  const seeds = metric?.seeds;
  if (record.status !== 'ran') {
    return { value: null, baseline, improvement: null, verdict: 'not-tested' };
  }
  if (seeds !== undefined) {
    const verdict: ExperimentVerdict = seeds.beyondMargin
      ? 'supported'
      : seeds.improvement > 0
        ? 'within-margin'
        : seeds.improvement === 0
          ? 'equal'
          : 'worse';
    return {
      value: seeds.mean,
      baseline,
      improvement: seeds.improvement,
      verdict,
      seeds: seeds.runs.length,
    };
  }
  const value = metric?.value ?? null;
  const improvement = metric?.improvement ?? null;
  const verdict: ExperimentVerdict =
    improvement === null
      ? 'not-measured'
      : improvement > 0
        ? 'supported'
        : improvement === 0
          ? 'equal'
          : 'worse';
  return { value, baseline, improvement, verdict };
}

/** The verdict in words, as report.md says it. */
export const verdictText: Record<ExperimentVerdict, string> = {
  supported: 'better than the baseline',
  'within-margin': "better than the baseline, but within the seeds' margin",
  equal: 'equal to the baseline',
  worse: 'worse than the baseline',
  'not-measured': 'not measured',
  'not-tested': 'not tested',
};

/** `accuracy 0.6235 ± 0.057 over 3 seeds vs the baseline's 0.6605 (−0.037, within the margin 0.06)`. */
export function measured(record: ExperimentRecord): string {
  const metric = record.metric;
  const seeds = metric?.seeds;
  if (metric !== undefined && seeds !== undefined) {
    // Each seed ran on its own: the mean is the figure, judged against its own spread.
    const runs = seeds.runs.length;
    // Where the baseline ran on the same seeds, its mean there is what the mean is paired with.
    const pairedBaseline = record.paired?.metrics.find((entry) => entry.primary)?.baselineMean;
    const baseline =
      pairedBaseline !== undefined && pairedBaseline !== null
        ? ` vs the baseline's ${formatNumber(pairedBaseline)} on the same seeds`
        : metric.baseline === null
          ? ''
          : ` vs the baseline's ${formatNumber(metric.baseline)}`;
    const verdict = seeds.beyondMargin ? 'beyond' : 'within';
    return `${metric.name} ${formatNumber(seeds.mean)} ± ${formatNumber(seeds.sd)} over ${runs} seed${runs === 1 ? '' : 's'}${baseline} (${formatSigned(seeds.improvement)}, ${verdict} the margin ${formatNumber(seeds.margin)})`;
  }
  if (metric === undefined || metric.value === null) return 'not measured';
  const baseline =
    metric.baseline === null ? '' : ` vs the baseline's ${formatNumber(metric.baseline)}`;
  const gain = metric.improvement === null ? '' : ` (${formatSigned(metric.improvement)})`;
  return `${metric.name} ${formatNumber(metric.value)}${baseline}${gain}`;
}

/** `0.6235 (−0.037)`: what fits beside a bar; the same figure as `measured`. */
export function shortResult(record: ExperimentRecord): string {
  const figure = experimentFigure(record);
  if (figure.value === null) return record.status === 'ran' ? 'not measured' : record.status;
  const mean = figure.seeds === undefined ? '' : ' mean';
  return figure.improvement === null
    ? `${formatNumber(figure.value)}${mean}`
    : `${formatNumber(figure.value)}${mean} (${formatSigned(figure.improvement)})`;
}
