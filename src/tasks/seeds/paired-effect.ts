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
  /**
   * What the effect must clear: the paired margin (and any extra margin, e.g. repeat runs of
   * one seed), and the seed margin too when the final script does not vary with the seed.
   */
  margin: number;
  beyondMargin: boolean;
  /**
   * The final script printed one value on every seed while the starter's varied: it may
   * ignore the seed (a fixed, perhaps hand-picked one); the seed margin then applies.
   */
  finalIgnoresSeed: boolean;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;

/**
 * Pairs the starter's and the final script's values seed by seed and measures the mean
 * difference against the paired margin: is the effect distinguishable from zero, given how
 * much the differences vary from seed to seed? A "solution" that only moves the seed
 * (seed + k) shifts each pair by a seed-to-seed difference: the differences spread as widely
 * as the seeds do and their mean stays near zero, inside the margin. A final script that
 * prints one value on every seed carries no seed variation of its own to pair (a fixed,
 * perhaps hand-picked seed), so its one value must also clear the starter's seed spread
 * (2 sd): no better than a lucky seed is no improvement. Null with fewer than two pairs:
 * one seed says nothing about seed variance.
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
  const finalIgnoresSeed = finalSample.sd === 0 && starterSample.sd > 0;
  const margin = Math.max(pairedMargin, extraMargin, finalIgnoresSeed ? seedMargin : 0);
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
    finalIgnoresSeed,
  };
}
