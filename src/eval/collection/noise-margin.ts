import type { StarterTrial } from '../starter-trials.js';

/** What repeated runs of a starter say about its metric. */
export interface StarterNoise {
  trials: number;
  /** Trials that printed the metric. */
  measured: number;
  mean: number | null;
  /** Sample standard deviation; null with fewer than two measured trials. */
  std: number | null;
  /**
   * How far a result must beat the starter's mean to count as an improvement: two sample
   * standard deviations (about 95 % of a normal spread), 0 when the starter is deterministic
   * or was measured fewer than twice.
   */
  margin: number;
}

export function starterNoise(trials: StarterTrial[]): StarterNoise {
  const values = trials.flatMap((trial) =>
    trial.metric === null || trial.exitCode !== 0 ? [] : [trial.metric],
  );
  if (values.length === 0) {
    return { trials: trials.length, measured: 0, mean: null, std: null, margin: 0 };
  }
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const std =
    values.length < 2
      ? null
      : Math.sqrt(
          values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1),
        );
  return { trials: trials.length, measured: values.length, mean, std, margin: 2 * (std ?? 0) };
}
