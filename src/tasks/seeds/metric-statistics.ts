/** Several measurements of one metric: their mean and spread. */
export interface MetricSample {
  values: number[];
  mean: number;
  /** Sample standard deviation (n − 1); 0 for a single value. */
  sd: number;
}

export function metricSample(values: readonly number[]): MetricSample | null {
  if (values.length === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance =
    values.length < 2
      ? 0
      : values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { values: [...values], mean, sd: Math.sqrt(variance) };
}

/**
 * How far the final mean must beat the starter's before it counts as an improvement: two
 * standard errors of the difference of the means (about a 95% margin for normal noise).
 * Zero when both sides are single measurements, so one run each compares as before.
 */
export function improvementMargin(final: MetricSample, starter: MetricSample): number {
  const standardError = Math.sqrt(
    final.sd ** 2 / final.values.length + starter.sd ** 2 / starter.values.length,
  );
  return 2 * standardError;
}

/** Whether final beats starter in the metric's direction by more than the margin. */
export function improvesBeyondSpread(
  final: MetricSample,
  starter: MetricSample,
  goal: 'max' | 'min',
): boolean {
  const gain = goal === 'max' ? final.mean - starter.mean : starter.mean - final.mean;
  return gain > improvementMargin(final, starter);
}
