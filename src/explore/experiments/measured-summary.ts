import type { ExperimentRecord } from './run-experiments.js';
import { primaryPaired } from './paired-results.js';

const signed = (value: number) => `${value >= 0 ? '+' : ''}${Number(value.toPrecision(4))}`;
const short = (value: number) => String(Number(value.toPrecision(4)));

/**
 * One experiment in a line, as the terminal shows it: the seeds' mean against the baseline's
 * mean on the same seeds, the paired effect and its margin, and the judge's verdict; the
 * single run's figures only where no seeds were paired.
 */
export function measuredSummary(record: ExperimentRecord): string {
  const metric = record.metric;
  if (metric === undefined) return `${record.status}: ${record.reason}`;
  const primary = primaryPaired(record.paired);
  const effect = primary?.effect ?? null;
  const verdict = record.verdict === undefined ? '' : `; hypothesis ${record.verdict.verdict}`;
  if (primary !== undefined && effect !== null && primary.ideaMean !== null) {
    const baseline = primary.baselineMean === null ? 'none' : short(primary.baselineMean);
    return `${metric.name} mean ${short(primary.ideaMean)} over ${effect.pairs.length} seeds vs the baseline's ${baseline} on the same seeds (paired ${signed(effect.effect)} ± ${short(effect.margin)}, ${effect.beyondMargin ? 'beyond' : 'within'} the margin)${verdict}`;
  }
  const improvement =
    metric.improvement === null ? 'no improvement measured' : signed(metric.improvement);
  return `${metric.name} ${String(metric.value)} vs baseline ${String(metric.baseline)} (${improvement}, one run)${verdict}`;
}
