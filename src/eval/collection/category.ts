import type { ImplementResult } from '../../agent/final-result.js';

/**
 * ResearchCodeAgent's outcome categories: A, the final code runs and beats the starter's
 * metric by more than the noise margin; B, it runs without such an improvement (or there is
 * no metric to compare); C, it errors or prints no metric; D, no code was produced.
 */
export type Category = 'A' | 'B' | 'C' | 'D';
export const categories: readonly Category[] = ['A', 'B', 'C', 'D'];

export interface CategoryInput {
  result: ImplementResult | undefined;
  /** The starter's figure to beat: the mean of the repeated starter runs, else the run's own. */
  starter: number | null;
  margin: number;
}

/** How much the final metric beats the starter by, in the goal's direction; null when unknown. */
export function improvementOf(result: ImplementResult, starter: number | null): number | null {
  const metric = result.metric;
  if (metric === null || metric.value === null || starter === null) return null;
  return metric.goal === 'max' ? metric.value - starter : starter - metric.value;
}

export function categorize(input: CategoryInput): Category {
  const { result } = input;
  if (result === undefined || result.finalScript === null) return 'D';
  if (!result.ran) return 'C';
  if (result.metric !== null && result.metric.value === null) return 'C';
  const improvement = improvementOf(result, input.starter);
  // Metrics are printed with few decimals: a difference equal to the margin up to float error is not above it.
  return improvement !== null && improvement > input.margin + 1e-9 ? 'A' : 'B';
}
