import { diffLines } from 'diff';

/** 1-based numbers of the lines in `after` that are new or changed relative to `before`. */
export function changedLines(before: string, after: string): number[] {
  const lines: number[] = [];
  let line = 1;
  for (const change of diffLines(before, after)) {
    const count = change.count ?? 0;
    if (change.removed) continue;
    if (change.added) for (let offset = 0; offset < count; offset += 1) lines.push(line + offset);
    line += count;
  }
  return lines;
}
