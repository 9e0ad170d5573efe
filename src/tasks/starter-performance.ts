import type { ExecutionResult } from '../sandbox/types.js';
import type { MetricReading } from './parse-metric.js';
import type { Task } from './types.js';

/** The text codify writes to starter_code_performance.txt after measuring the starter. */
export function starterPerformanceText(
  task: Task,
  reading: MetricReading,
  execution: ExecutionResult,
): string {
  const command = ['python', task.entrypoint, ...task.args].join(' ');
  const seconds = (execution.durationMs / 1000).toFixed(1);
  return [
    `${reading.name}: ${reading.raw}`,
    '',
    `Measured by codify: \`${command}\` exited with code ${String(execution.exitCode)} after ${seconds} s; the value is the last match of the pattern ${task.metric?.pattern ?? ''} in its output (goal: ${reading.goal}).`,
    '',
  ].join('\n');
}
