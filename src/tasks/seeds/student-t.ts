/**
 * The 97.5 % quantile of Student's t distribution by degrees of freedom (1–30), from the
 * standard tables: with few seeds the mean of the paired differences is far less certain
 * than the normal 1.96 says (3 seeds: 4.30), and a margin built on 2 would call a seed
 * change an improvement about one time in ten.
 */
const quantiles = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

/** Two-sided 95 % critical value of t with `degrees` degrees of freedom (≥ 1). */
export function studentT975(degrees: number): number {
  if (!Number.isInteger(degrees) || degrees < 1) {
    throw new RangeError(`degrees of freedom must be a whole number ≥ 1, not ${degrees}`);
  }
  // Past 30 the table is within 2 % of the normal quantile.
  return quantiles[degrees - 1] ?? 1.96;
}
