import type { PdfLine } from './pdf-lines.js';

/** A footnote: its mark ("1", "*") and text, and the lines it was read from. */
export interface Footnote {
  mark: string;
  text: string;
  lines: PdfLine[];
}

/** A footnote mark after a word: `vanish^{1}`, `number^{2}.` (not `x^{2}`: one letter). */
export const footnoteMark = /(\p{L}{2,}[.,;:)]?)\^\{(\d{1,2}|[*†‡§¶])\}/gu;

/**
 * The footnotes under the footnote rules: each starts with its mark (a line of its own or
 * the start of an indented line); unindented lines continue it.
 */
export function collectFootnotes(
  lines: PdfLine[],
  join: (previous: string, next: string) => string,
): Footnote[] {
  const notes: Footnote[] = [];
  let bareMark: string | undefined;
  for (const line of lines.filter((candidate) => candidate.footnote)) {
    if (/^(\d{1,2}|[*†‡§¶])$/.test(line.text)) {
      bareMark = line.text;
      continue;
    }
    const last = notes.at(-1);
    const starts = bareMark !== undefined || line.x > line.columnLeft + 3 || last === undefined;
    if (!starts && last !== undefined) {
      last.text = join(last.text, line.text);
      last.lines.push(line);
      continue;
    }
    const marked = /^(\d{1,2}|[*†‡§¶])\s*(.*)$/.exec(line.text);
    const mark = bareMark ?? marked?.[1] ?? '';
    const text = bareMark !== undefined ? line.text : (marked?.[2] ?? line.text);
    notes.push({ mark, text, lines: [line] });
    bareMark = undefined;
  }
  return notes;
}
