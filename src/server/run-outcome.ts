import type { ImplementResult } from '../agent/final-result.js';
import type { RepoReport } from '../repo/report.js';
import { readRunFile } from './run-paths.js';

/**
 * What a finished run came to, in a few words for the runs list: the metric against the
 * starter's (implement) or whether the generated repository runs (paper). Undefined when the
 * run has written no result yet or it cannot be read.
 */
export function runOutcome(runDirectory: string): string | undefined {
  const result = readJson<Partial<ImplementResult>>(runDirectory, 'result.json');
  if (result !== undefined) {
    const metric = result.metric;
    if (metric !== null && metric !== undefined && metric.value !== null) {
      const starter = metric.starter === null ? '' : ` (starter ${metric.starter})`;
      return `${metric.name} ${metric.value}${starter}`;
    }
    if (result.ran === false) return `${result.outcome ?? 'ended'}: the final script did not run`;
    return result.reason;
  }
  const report = readJson<Partial<RepoReport>>(runDirectory, 'report.json');
  if (report?.verify !== undefined) {
    return `${report.verify.ok ? 'runs' : 'does not run'}: ${report.verify.summary}`;
  }
  return undefined;
}

/** Missing, unreadable or a symbolic link (never followed): undefined. */
function readJson<T>(runDirectory: string, name: string): T | undefined {
  try {
    return JSON.parse(readRunFile(runDirectory, name).toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
