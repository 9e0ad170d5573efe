import { parseCover } from '../sandbox/trace-cover.js';
import type { RunTraces, ScriptTrace, TraceLine } from './api-types.js';
import { listRunFiles } from './run-files.js';
import { readRunFile } from './run-paths.js';

const coverSuffix = '_execution_trace.cover';
/** `trace` writes a 7-character prefix: `    5: `, `>>>>>> ` or blanks. */
const prefixLength = 7;

/** The latest line trace of every script the run executed (the .cover files beside them). */
export function readRunTraces(runDirectory: string): RunTraces {
  const traces: ScriptTrace[] = listRunFiles(runDirectory)
    .files.filter((file) => file.path.endsWith(coverSuffix))
    .map((file) => {
      const text = readRunFile(runDirectory, file.path).toString('utf8');
      return { path: file.path, script: scriptOf(file.path), lines: traceLines(text, file.path) };
    });
  return { traces };
}

export function traceLines(text: string, path: string): TraceLine[] {
  const trace = parseCover(text, path);
  const never = new Set(trace.neverRan);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((raw, index) => {
    const line = index + 1;
    const counted = trace.counts[line];
    return {
      line,
      text: raw.slice(prefixLength),
      count: counted !== undefined ? counted : never.has(line) ? 0 : null,
    };
  });
}

function scriptOf(coverPath: string): string {
  return `${coverPath.slice(0, -coverSuffix.length)}.py`.replace(/^workspace\//, '');
}
