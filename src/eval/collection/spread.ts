/** A figure over trials: its mean and how far the trials spread. */
export interface Spread {
  n: number;
  mean: number | null;
  /** Sample standard deviation; null with fewer than two values. */
  std: number | null;
  min: number | null;
  max: number | null;
}

export function spreadOf(values: readonly (number | null)[]): Spread {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return { n: 0, mean: null, std: null, min: null, max: null };
  const mean = known.reduce((sum, value) => sum + value, 0) / known.length;
  const std =
    known.length < 2
      ? null
      : Math.sqrt(known.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (known.length - 1));
  return { n: known.length, mean, std, min: Math.min(...known), max: Math.max(...known) };
}
