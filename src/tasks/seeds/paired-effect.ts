import { metricSample } from './metric-statistics.js';
import { studentT975 } from './student-t.js';

/** One script's metric on one seed; null when it printed none or failed. */
export interface SeedValue {
  seed: number;
  value: number | null;
}

/** The starter and the final script on the same seed. */
export interface SeedPair {
  seed: number;
  starter: number;
  final: number;
  /** final − starter, signed so that positive is better for the metric's goal. */
  difference: number;
}

/** What seeds say about an improvement: the paired effect and the margin it must clear. */
export interface PairedEffect {
  pairs: SeedPair[];
  /** Seeds on which either script printed no metric; they count in no figure below. */
  unpaired: number[];
  /** Mean of the paired differences: the effect. */
  effect: number;
  /** Sample standard deviation of the paired differences. */
  differenceSd: number;
  /** The starter's spread over the seeds: what a change of seed alone moves the metric by. */
  starterSd: number;
  finalSd: number;
  /** t(97.5 %, n − 1) × differenceSd / √n: the effect is not zero beyond this. */
  pairedMargin: number;
  /** 2 × starterSd: an effect within it is no larger than what changing the seed gives. */
  seedMargin: number;
  /** The larger of the two (and of any extra margin, e.g. repeat runs of one seed). */
  margin: number;
  beyondMargin: boolean;
  /**
   * The final script printed one value on every seed while the starter's varied: it may
   * ignore the seed (a fixed, perhaps hand-picked one), which the report points out.
   */
  finalIgnoresSeed: boolean;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;

/**
 * Pairs the starter's and the final script's values seed by seed and measures the effect
 * against two margins: the paired one (is the effect distinguishable from zero?) and the
 * starter's seed spread (is it larger than a lucky seed?). A "solution" that only changes
 * the seed shifts each pair by a seed-to-seed difference, so its effect falls inside both.
 * Null with fewer than two pairs: one seed says nothing about seed variance.
 */
export function pairedEffect(
  starter: readonly SeedValue[],
  final: readonly SeedValue[],
  goal: 'max' | 'min',
  extraMargin = 0,
): PairedEffect | null {
  const pairs: SeedPair[] = [];
  const unpaired: number[] = [];
  for (const run of final) {
    const base = starter.find((entry) => entry.seed === run.seed)?.value ?? null;
    if (run.value === null || base === null) {
      unpaired.push(run.seed);
      continue;
    }
    const difference = goal === 'max' ? run.value - base : base - run.value;
    pairs.push({ seed: run.seed, starter: base, final: run.value, difference: round(difference) });
  }
  const differences = metricSample(pairs.map((pair) => pair.difference));
  const starterSample = metricSample(pairs.map((pair) => pair.starter));
  const finalSample = metricSample(pairs.map((pair) => pair.final));
  if (differences === null || starterSample === null || finalSample === null) return null;
  if (pairs.length < 2) return null;
  const pairedMargin = (studentT975(pairs.length - 1) * differences.sd) / Math.sqrt(pairs.length);
  const seedMargin = 2 * starterSample.sd;
  const margin = Math.max(pairedMargin, seedMargin, extraMargin);
  return {
    pairs,
    unpaired,
    effect: round(differences.mean),
    differenceSd: round(differences.sd),
    starterSd: round(starterSample.sd),
    finalSd: round(finalSample.sd),
    pairedMargin: round(pairedMargin),
    seedMargin: round(seedMargin),
    margin: round(margin),
    // Metrics are printed with few decimals: an effect equal to the margin up to float error is not above it.
    beyondMargin: differences.mean > margin + 1e-9,
    finalIgnoresSeed: finalSample.sd === 0 && starterSample.sd > 0,
  };
}
