import { parseMetric } from '../parse-metric.js';
import type { TaskMetric } from '../types.js';
import { readStructuredResult, structuredValue } from './structured-result.js';

/** What one seed's run reported: its metric, and every metric of its structured line. */
export interface SeedReading {
  value: number | null;
  /** The structured line's metrics (`CODIFY_RESULT`); absent when none was printed or usable. */
  metrics?: Record<string, number>;
  /** Why a structured line that was printed could not be used. */
  resultProblem?: string;
}

/**
 * Reads a seed run's output: the structured line's metrics when it printed one for this seed,
 * and the metric's value from it, else from the metric's own printed line (last match wins).
 */
export function readSeedOutput(
  output: string,
  seed: number,
  metric: TaskMetric | undefined,
): SeedReading {
  const structured = readStructuredResult(output);
  const plain = metric === undefined ? null : (parseMetric(output, metric)?.value ?? null);
  if (structured === undefined) return { value: plain };
  if ('problem' in structured) return { value: plain, resultProblem: structured.problem };
  const { result } = structured;
  if (result.seed !== undefined && result.seed !== seed) {
    return {
      value: plain,
      resultProblem: `the structured line names seed ${result.seed}, but the run was given seed ${seed}`,
    };
  }
  const value = metric === undefined ? undefined : structuredValue(result.metrics, metric.name);
  return { value: value ?? plain, metrics: result.metrics };
}
