import { createTwoFilesPatch } from 'diff';

/** A unified diff with three lines of context; empty when the texts are equal. */
export function unifiedDiff(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
): string {
  if (oldText === newText) return '';
  return createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, {
    context: 3,
  });
}

/** Lines added and removed in a unified diff. */
export function diffStatistics(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed };
}
