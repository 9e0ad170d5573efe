import type { ExecutionResult } from '../sandbox/types.js';
import { metricSample } from './seeds/metric-statistics.js';
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

/** starter_code_performance.txt after several runs: the mean, the spread and every value. */
export function repeatedPerformanceText(
  task: Task,
  values: readonly number[],
  runs: readonly { execution: ExecutionResult }[],
): string {
  const sample = metricSample(values);
  const name = task.metric?.name ?? 'metric';
  const command = ['python', task.entrypoint, ...task.args].join(' ');
  const seconds = runs.map((run) => (run.execution.durationMs / 1000).toFixed(1)).join(', ');
  return [
    `${name}: ${sample === null ? 'unknown' : formatNumber(sample.mean)}`,
    '',
    `Measured by codify: \`${command}\` run ${runs.length} times (${seconds} s); the values are the last match of the pattern ${task.metric?.pattern ?? ''} in each output (goal: ${task.metric?.goal ?? 'max'}): ${values.map(formatNumber).join(', ')}; mean ${sample === null ? 'unknown' : formatNumber(sample.mean)}, standard deviation ${sample === null ? 'unknown' : formatNumber(sample.sd)}.`,
    '',
  ].join('\n');
}

/** Enough digits to tell runs apart, without float noise. */
const formatNumber = (value: number): string => String(Number(value.toPrecision(6)));
