import type { ImplementResult } from '../../agent/final-result.js';
import type { PairedEffect } from '../../tasks/seeds/paired-effect.js';

/**
 * ResearchCodeAgent's outcome categories: A, the final code runs and beats the starter's
 * metric by more than the margin, across seeds; B, it runs without such an improvement (or
 * there is no metric to compare, or the gain was measured on one seed only); C, it errors or
 * prints no metric (on any seed); D, no code was produced.
 */
export type Category = 'A' | 'B' | 'C' | 'D';
export const categories: readonly Category[] = ['A', 'B', 'C', 'D'];

/** What the starter and the final script did on the suite's seeds (two or more). */
export interface SeededOutcome {
  /** The paired effect and its margin; null with fewer than two seeds both printed a value on. */
  effect: PairedEffect | null;
  /** Seeds on which the final script failed or printed no metric. */
  finalFailed: number[];
}

export interface CategoryInput {
  result: ImplementResult | undefined;
  /** The starter's figure to beat: the mean of the repeated starter runs, else the run's own. */
  starter: number | null;
  /** The repeat-run margin (one seed, run again): noise that is not seed variance. */
  margin: number;
  /** Present when the suite ran seeds: the verdict is then theirs. */
  seeds?: SeededOutcome;
}

/** How much the final metric beats the starter by, in the goal's direction; null when unknown. */
export function improvementOf(result: ImplementResult, starter: number | null): number | null {
  const metric = result.metric;
  if (metric === null || metric.value === null || starter === null) return null;
  return metric.goal === 'max' ? metric.value - starter : starter - metric.value;
}

/**
 * A gain on one seed beyond the repeat-run margin: real under that seed, but a seed change
 * alone can give as much, so it is not called A (the record and the report flag it).
 */
export function isFixedSeedGain(input: CategoryInput): boolean {
  if (input.seeds !== undefined || input.result === undefined) return false;
  const improvement = improvementOf(input.result, input.starter);
  // Metrics are printed with few decimals: a difference equal to the margin up to float error is not above it.
  return improvement !== null && improvement > input.margin + 1e-9;
}

export function categorize(input: CategoryInput): Category {
  const { result } = input;
  if (result === undefined || result.finalScript === null) return 'D';
  if (!result.ran) return 'C';
  if (result.metric !== null && result.metric.value === null) return 'C';
  if (input.seeds === undefined) return 'B';
  // Code that breaks on another seed does not run: the seed is part of its input.
  if (input.seeds.finalFailed.length > 0) return 'C';
  return input.seeds.effect?.beyondMargin === true ? 'A' : 'B';
}
