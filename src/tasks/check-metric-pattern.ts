import { TaskError } from './task-error.js';

/** Capture groups in a pattern: matching the empty alternative yields one slot per group. */
function captureGroupCount(pattern: RegExp): number {
  const match = new RegExp(`${pattern.source}|`, pattern.flags).exec('');
  return match ? match.length - 1 : 0;
}

/** Throws a TaskError naming task.json unless `pattern` is a valid regex with a capture group. */
export function checkMetricPattern(pattern: string, settingsPath: string): void {
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, 'm');
  } catch (error) {
    throw new TaskError(
      `${settingsPath}: "metric.pattern" ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message}): fix it, e.g. "accuracy: ([0-9.]+)"`,
      settingsPath,
    );
  }
  if (captureGroupCount(compiled) < 1) {
    throw new TaskError(
      `${settingsPath}: "metric.pattern" ${JSON.stringify(pattern)} has no capture group: put the number in parentheses, e.g. "accuracy: ([0-9.]+)"`,
      settingsPath,
    );
  }
}
