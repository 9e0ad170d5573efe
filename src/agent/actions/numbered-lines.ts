/** Splits text into lines without inventing an empty last line for a trailing newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Lines prefixed with their 1-based numbers, right-aligned. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines
    .map((line, index) => `${String(firstLine + index).padStart(width)}: ${line}`)
    .join('\n');
}
