import { readFileSync } from 'node:fs';
import { parseMetric } from '../../tasks/parse-metric.js';
import {
  pairedEffect,
  type PairedEffect,
  type SeedValue,
} from '../../tasks/seeds/paired-effect.js';
import type { SeedRun } from '../../tasks/seeds/run-seeds.js';
import { metricKey, structuredValue } from '../../tasks/seeds/structured-result.js';
import type { TaskMetric } from '../../tasks/types.js';
import type { IdeaCard } from '../schemas.js';
import { planMetric } from './metric-pattern.js';

/** One metric of an experiment, the idea and the baseline paired seed by seed. */
export interface PairedMetric {
  name: string;
  /**
   * The metric's goal, from the experiment's metric or the plan; null for a metric only the
   * structured line names: its effect is then the plain difference idea − baseline.
   */
  goal: 'max' | 'min' | null;
  /** The metric the experiment is ranked by. */
  primary: boolean;
  idea: SeedValue[];
  baseline: SeedValue[];
  ideaMean: number | null;
  baselineMean: number | null;
  /** Mean of the per-seed differences and its margin t(97.5 %, n − 1)·sd/√n; null under two pairs. */
  effect: PairedEffect | null;
}

/** An experiment's seeds, each run by the idea's final script and by the unchanged baseline. */
export interface PairedResults {
  seeds: number[];
  metrics: PairedMetric[];
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;

const meanOf = (values: readonly SeedValue[]) => {
  const known = values.flatMap((entry) => (entry.value === null ? [] : [entry.value]));
  return known.length === 0
    ? null
    : round(known.reduce((sum, value) => sum + value, 0) / known.length);
};

function outputOf(run: SeedRun): string {
  try {
    return readFileSync(run.outputPath, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A run's value for a metric: its structured line's, else (for a metric with a pattern) the
 * metric's own printed line. A run that failed has none.
 */
function valueOn(run: SeedRun, name: string, pattern: TaskMetric | undefined): number | null {
  if (run.exitCode !== 0 || run.timedOut) return null;
  const structured = structuredValue(run.metrics, name);
  if (structured !== undefined) return structured;
  if (pattern === undefined) return null;
  return parseMetric(outputOf(run), pattern)?.value ?? null;
}

interface MetricToPair {
  name: string;
  goal: 'max' | 'min' | null;
  pattern?: TaskMetric;
}

/** The experiment's metric first, then the plan's, then any other the structured lines name. */
function metricsToPair(
  card: IdeaCard,
  primary: TaskMetric,
  runs: readonly SeedRun[],
): MetricToPair[] {
  const found: MetricToPair[] = [{ name: primary.name, goal: primary.goal, pattern: primary }];
  const add = (entry: MetricToPair) => {
    if (!found.some((known) => metricKey(known.name) === metricKey(entry.name))) found.push(entry);
  };
  for (const planned of card.experimentPlan.metrics) {
    add({ name: planned.name, goal: planned.direction, pattern: planMetric(planned) });
  }
  for (const run of runs) {
    for (const name of Object.keys(run.metrics ?? {})) add({ name, goal: null });
  }
  return found;
}

/**
 * Pairs the idea's seeds with the baseline's, metric by metric, as the evaluation pairs a
 * final script with its starter (pairedEffect): the effect is the mean per-seed difference,
 * positive when better for the metric's goal. A metric neither side reported is left out.
 */
export function pairResults(
  card: IdeaCard,
  primary: TaskMetric,
  ideaRuns: readonly SeedRun[],
  baselineRuns: readonly SeedRun[],
): PairedResults {
  const seeds = ideaRuns.map((run) => run.seed);
  const metrics: PairedMetric[] = [];
  for (const metric of metricsToPair(card, primary, [...ideaRuns, ...baselineRuns])) {
    const values = (runs: readonly SeedRun[]) =>
      runs.map((run) => ({ seed: run.seed, value: valueOn(run, metric.name, metric.pattern) }));
    const idea = values(ideaRuns);
    const baseline = values(baselineRuns);
    const reported = [...idea, ...baseline].some((entry) => entry.value !== null);
    if (!reported && metric.name !== primary.name) continue;
    metrics.push({
      name: metric.name,
      goal: metric.goal,
      primary: metric.name === primary.name,
      idea,
      baseline,
      ideaMean: meanOf(idea),
      baselineMean: meanOf(baseline),
      effect: pairedEffect(baseline, idea, metric.goal ?? 'max'),
    });
  }
  return { seeds, metrics };
}

/** The experiment's own metric among the paired ones. */
export function primaryPaired(results: PairedResults | undefined): PairedMetric | undefined {
  return results?.metrics.find((metric) => metric.primary);
}
