import type { ExecutionTrace } from './types.js';

/** `[3,4,5,9]` → `3-5, 9`. */
export function lineRanges(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const parts: string[] = [];
  let start: number | undefined;
  let previous: number | undefined;
  for (const line of sorted) {
    if (start !== undefined && previous !== undefined && line === previous + 1) {
      previous = line;
      continue;
    }
    if (start !== undefined && previous !== undefined) {
      parts.push(start === previous ? `${start}` : `${start}-${previous}`);
    }
    start = line;
    previous = line;
  }
  if (start !== undefined && previous !== undefined) {
    parts.push(start === previous ? `${start}` : `${start}-${previous}`);
  }
  return parts.join(', ');
}

/**
 * A short account of an execution trace for the model: how much of the script ran, which
 * lines never ran, and — most useful after an edit — which of the changed lines never ran.
 */
export function summarizeTrace(
  trace: ExecutionTrace,
  options: { changedLines?: number[]; coverName?: string } = {},
): string {
  const executed = Object.keys(trace.counts).length;
  const total = executed + trace.neverRan.length;
  const sentences: string[] = [];
  if (trace.neverRan.length === 0) {
    sentences.push(`Execution trace: all ${total} executable lines ran.`);
  } else {
    sentences.push(
      `Execution trace: ${executed} of ${total} executable lines ran; ${trace.neverRan.length === 1 ? 'line' : 'lines'} ${lineRanges(trace.neverRan)} never ran.`,
    );
  }
  const changed = options.changedLines;
  if (changed && changed.length > 0) {
    const never = new Set(trace.neverRan);
    const changedNever = changed.filter((line) => never.has(line));
    const changedRan = changed.filter((line) => (trace.counts[line] ?? 0) > 0);
    if (changedNever.length > 0) {
      // Two lists, each named: one sentence mixing "never ran" and "ran" was misread.
      sentences.push(`New or changed lines that never ran: ${lineRanges(changedNever)}.`);
      if (changedRan.length > 0)
        sentences.push(`New or changed lines that ran: ${lineRanges(changedRan)}.`);
    } else if (changedRan.length > 0) {
      sentences.push(`Every new or changed executable line ran (${lineRanges(changedRan)}).`);
    }
  }
  sentences.push(`Per-line counts: ${options.coverName ?? trace.coverPath}`);
  return sentences.join(' ');
}
