import type { ExecutionResult } from '../sandbox/types.js';
import type { MetricReading } from './parse-metric.js';
import type { TaskMetric } from './types.js';

/** Why a starter run is unusable: it failed, or its metric was not printed as declared. */
export interface StarterFailure {
  kind: 'starter-failed' | 'metric-not-found';
  message: string;
}

/**
 * What is wrong with a run of the starter code, in the words `codify check` and `codify
 * implement` both use; undefined when it ran and printed its metric (if one is declared).
 */
export function starterFailure(
  execution: Pick<ExecutionResult, 'exitCode' | 'signal' | 'timedOut' | 'memoryExceeded'>,
  metric: TaskMetric | undefined,
  reading: MetricReading | undefined,
): StarterFailure | undefined {
  const failed = (message: string): StarterFailure => ({ kind: 'starter-failed', message });
  if (execution.timedOut) return failed('the starter code did not finish within the timeout');
  if (execution.memoryExceeded) return failed('the starter code ran out of memory');
  if (execution.exitCode === null) {
    return failed(`the starter code was killed (${execution.signal ?? 'no exit code'})`);
  }
  if (execution.exitCode !== 0) {
    return failed(`the starter code exited with code ${execution.exitCode}`);
  }
  if (metric === undefined) return undefined;
  if (reading === undefined) {
    return {
      kind: 'metric-not-found',
      message: `the starter's output has no match for the metric pattern ${metric.pattern} (task.json "metric.pattern"): make the script print the metric, or fix the pattern`,
    };
  }
  if (reading.value === null) {
    return {
      kind: 'metric-not-found',
      message: `the metric pattern matched "${reading.raw}", which is not a number: make the first capture group hold only the number`,
    };
  }
  return undefined;
}
