import { Dehyphenator } from './dehyphenate.js';
import { DocumentBuilder } from './document-builder.js';
import type { PaperDocument, PaperTable } from './document.js';
import { looksMathematical } from './math-line.js';
import { splitAuthors } from './normalize.js';
import type { PdfLine } from './pdf-lines.js';
import { readPdfLines } from './pdf-lines.js';
import type { Footnote } from './pdf-footnotes.js';
import { collectFootnotes, footnoteMark } from './pdf-footnotes.js';
import { furniture } from './pdf-furniture.js';
import { captionKey, FloatPlacement } from './pdf-float-placement.js';

const numberedHeading = /^(\d+(?:\.\d+){0,2})\.?\s+([A-Z][^]{0,80})$/;
const tableCaption = /^Table\s+(\d+)\s*[.:]\s*(.*)$/i;
const figureCaption = /^(Figure|Fig\.)\s+\d+\s*[.:]/;
const algorithmCaption = /^Algorithm\s+\d+\s*[.:]?\s*(.*)$/i;
const equationNumber = /^\(\d+[a-z]?\)$/;
const stepNumber = /^\d+:\s*/;

function round(size: number): number {
  return Math.round(size * 2) / 2;
}

/** The most common font size, by characters: the body text's. */
function bodySize(lines: PdfLine[]): number {
  const counts = new Map<number, number>();
  for (const line of lines) {
    counts.set(round(line.size), (counts.get(round(line.size)) ?? 0) + line.text.length);
  }
  return [...counts.entries()].sort((first, second) => second[1] - first[1])[0]?.[0] ?? 10;
}

/** Drops an equation number like "(3)" at the right edge, which arrives as a separate cell. */
function withoutEquationNumber(line: PdfLine): Line {
  const last = line.cells.at(-1);
  if (line.cells.length < 2 || last === undefined || !equationNumber.test(last)) return line;
  const cells = line.cells.slice(0, -1);
  return {
    ...line,
    cells,
    cellStarts: line.cellStarts.slice(0, -1),
    text: cells.join(' '),
    numbered: true,
  };
}

/** A line as the layout sees it: with whether it carried an equation number. */
type Line = PdfLine & { numbered?: boolean };

interface Heading {
  text: string;
  level: number;
}

class HeadingDetector {
  private readonly levelsBySize = new Map<number, number>();
  private readonly sizes: number[];
  private readonly anyBold: boolean;

  constructor(
    lines: Line[],
    private readonly body: number,
  ) {
    this.anyBold = lines.some((line) => line.bold);
    const depthCounts = new Map<number, Map<number, number>>();
    const headingSizes = new Set<number>();
    for (const line of lines) {
      if (!this.candidate(line)) continue;
      headingSizes.add(round(line.size));
      const numbered = numberedHeading.exec(line.text);
      if (!numbered?.[1]) continue;
      const depth = numbered[1].split('.').length;
      const counts = depthCounts.get(round(line.size)) ?? new Map<number, number>();
      counts.set(depth, (counts.get(depth) ?? 0) + 1);
      depthCounts.set(round(line.size), counts);
    }
    for (const [size, counts] of depthCounts) {
      const depth = [...counts.entries()].sort((first, second) => second[1] - first[1])[0]?.[0];
      if (depth !== undefined) this.levelsBySize.set(size, depth);
    }
    this.sizes = [...headingSizes].sort((first, second) => second - first);
  }

  /**
   * A heading is short, one cell, not mathematical, and bold (where the paper uses bold at
   * all), larger than the body or numbered; notices and footnotes in regular type are not.
   */
  private candidate(line: Line): boolean {
    if (line.text.length > 100 || /[.,;:]$/.test(line.text) || line.cells.length > 1) return false;
    if (line.monospace || line.footnote || looksMathematical(line.text)) return false;
    if (line.mathShare > 0.3) return false;
    if (/^abstract$/i.test(line.text)) return true;
    if (this.anyBold && !line.bold) return false;
    if (round(line.size) >= this.body + 1) return true;
    return numberedHeading.test(line.text);
  }

  detect(line: Line): Heading | undefined {
    if (!this.candidate(line)) return undefined;
    const numbered = numberedHeading.exec(line.text);
    if (numbered?.[1]) return { text: line.text, level: numbered[1].split('.').length };
    const bySize = this.levelsBySize.get(round(line.size));
    if (bySize !== undefined) return { text: line.text, level: bySize };
    const rank = this.sizes.indexOf(round(line.size));
    return { text: line.text, level: Math.min(Math.max(rank, 0) + 1, 3) };
  }
}

/**
 * The title (largest text on page 1) and the author lines beneath it. What stands above
 * the title (a permission notice, a conference banner) is not the paper's text.
 */
function titleBlock(lines: Line[]): { title: string; authors: string[]; rest: Line[] } {
  const firstPage = lines.filter((line) => line.page === 1);
  const largest = Math.max(...firstPage.map((line) => round(line.size)));
  const start = lines.findIndex((line) => line.page === 1 && round(line.size) === largest);
  if (start < 0) return { title: '', authors: [], rest: lines };
  let end = start;
  while (end + 1 < lines.length && round(lines[end + 1]?.size ?? 0) === largest) end += 1;
  const title = lines
    .slice(start, end + 1)
    .map((line) => line.text)
    .join(' ');
  const authorLines: Line[] = [];
  let next = end + 1;
  while (next < lines.length) {
    const line = lines[next];
    if (
      !line ||
      line.page !== 1 ||
      /^abstract\b/i.test(line.text) ||
      numberedHeading.test(line.text)
    )
      break;
    if (authorLines.map((author) => author.text).join(' ').length + line.text.length > 200) break;
    authorLines.push(line);
    next += 1;
  }
  // Only the first line is names (one per cell when set apart); the rest are usually
  // affiliations and e-mail addresses.
  const authors = (authorLines[0]?.cells ?? []).flatMap((cell) => splitAuthors(cell));
  return { title, authors, rest: lines.slice(next) };
}

type Open =
  | { kind: 'none' }
  | { kind: 'paragraph'; lines: string[]; last: Line }
  | { kind: 'equation'; parts: string[]; last: Line }
  | { kind: 'table'; table: PaperTable; captionOpen: boolean; number?: string; page: number }
  | {
      kind: 'algorithm';
      caption?: string;
      steps: { x: number; text: string; right: number }[];
      numbered: boolean;
    };

/** Whether consecutive lines from `index` hold rows of aligned cells (a table without caption). */
function alignedRows(lines: Line[], index: number): number {
  const first = lines[index];
  if (first === undefined || first.cells.length < 2) return 0;
  let count = 1;
  for (let next = index + 1; next < lines.length; next += 1) {
    const line = lines[next];
    if (line === undefined || line.cells.length !== first.cells.length || line.page !== first.page)
      break;
    const aligned = line.cellStarts.every(
      (start, cell) => Math.abs(start - (first.cellStarts[cell] ?? -100)) < 4,
    );
    if (!aligned) break;
    count += 1;
  }
  return count;
}

/**
 * Whether a display line is the next row of the display above it (an `align`): on the same
 * page, within a few lines, with its relation sign exactly under the one above (separate
 * centred equations put theirs wherever their width takes them).
 */
function alignedRow(previous: Line, line: Line): boolean {
  return (
    previous.relationX !== undefined &&
    line.relationX !== undefined &&
    line.page === previous.page &&
    line.gapBefore < 4 * line.size &&
    Math.abs(line.relationX - previous.relationX) < 1.5
  );
}

/** Whether a line continues a sentence: it starts in lower case, at its column's edge. */
function continues(line: Line): boolean {
  return line.x < line.columnLeft + 2 && /^[\p{Ll}\p{N}(]/u.test(line.text);
}

/** Whether a paragraph whose last line is `last` may go on after a float starting at `line`. */
function runsOnLater(last: Line, line: Line): boolean {
  return line.gapBefore === Infinity && last.right > last.columnRight - 2;
}

/** Lays PDF lines out as a document: headings, paragraphs, equations, tables, algorithms. */
export function layoutPdfLines(lines: PdfLine[], path: string): PaperDocument {
  const dropped = furniture(lines);
  const content: Line[] = lines.filter((line) => !dropped.has(line)).map(withoutEquationNumber);
  const builder = new DocumentBuilder();
  const { title, authors, rest } = titleBlock(content);
  builder.title = title;
  builder.authors = authors;
  const body = bodySize(rest);
  const headings = new HeadingDetector(rest, body);
  const words = new Dehyphenator(rest.map((line) => line.text));
  const join = (previous: string, next: string): string =>
    /\p{L}-$/u.test(previous) ? words.join(previous, next) : `${previous} ${next}`;
  let open: Open = { kind: 'none' };
  let sawNumberedSection = false;
  // Footnotes go where their mark is, as "(text)" the way the LaTeX reader writes them;
  // one whose mark is not found follows the paragraph it interrupts.
  const notes = collectFootnotes(rest, join);
  const used = new Set<Footnote>();
  const waiting: Footnote[] = [];
  const withFootnotes = (text: string): string =>
    text.replace(footnoteMark, (whole, word: string, mark: string) => {
      const note = notes.find((candidate) => candidate.mark === mark && !used.has(candidate));
      if (note === undefined) return whole;
      used.add(note);
      return `${word} (${note.text})`;
    });
  const flushFootnotes = (): void => {
    for (const note of waiting.splice(0)) {
      if (!used.has(note))
        builder.paragraph(note.mark === '' ? note.text : `${note.mark} ${note.text}`);
      used.add(note);
    }
  };
  // A paragraph interrupted by a float at the top of the next column: the float is built
  // after the paragraph, as the LaTeX source has it.
  let suspended: (Open & { kind: 'paragraph' }) | undefined;
  // The caption of a full-width figure that interrupted `suspended` at the top of a page.
  let interruptingCaption: (Open & { kind: 'paragraph' }) | undefined;
  const deferred: (() => void)[] = [];
  const floats = new FloatPlacement(builder, rest);
  const placeTable = (table: PaperTable, number: string | undefined, page: number): void =>
    floats.place(number === undefined ? undefined : `table ${number}`, page, (at) =>
      at === undefined ? builder.table(table) : builder.tableAt(at, table),
    );
  const emitParagraph = (paragraph: Open & { kind: 'paragraph' }): void => {
    const text = withFootnotes(paragraph.lines.join(' ').replace(/\s+/g, ' '));
    // A figure's caption is placed like a table.
    const figure = captionKey(text);
    if (figure?.startsWith('figure') === true) {
      floats.place(figure, paragraph.last.page, (at) =>
        at === undefined ? builder.paragraph(text) : builder.paragraphAt(at, text),
      );
    } else builder.paragraph(text);
    for (const action of deferred.splice(0)) action();
    if (figure === undefined) floats.paragraphPlaced(text, paragraph.last.page);
  };
  const close = (): void => {
    interruptingCaption = undefined;
    if (suspended !== undefined) {
      emitParagraph(suspended);
      suspended = undefined;
    }
    if (open.kind === 'paragraph') emitParagraph(open);
    if (open.kind === 'equation') builder.equation(open.parts.join(' '));
    if (open.kind === 'table') placeTable(open.table, open.number, open.page);
    if (open.kind === 'algorithm') {
      // Steps indent from the statements' left edge; "Require:" lines stand at the margin.
      const statements = open.steps.filter(
        (step) => !/^(Require|Ensure|Input|Output):/.test(step.text),
      );
      const left = Math.min(
        ...(statements.length > 0 ? statements : open.steps).map((step) => step.x),
      );
      const space = body * 0.6;
      const text = open.steps
        .map(
          (step) => `${' '.repeat(Math.max(0, Math.round((step.x - left) / space)))}${step.text}`,
        )
        .join('\n');
      builder.algorithm({ caption: open.caption, text });
    }
    open = { kind: 'none' };
    flushFootnotes();
  };

  for (const [index, line] of rest.entries()) {
    floats.position = index;
    if (line.footnote) {
      const note = notes.find((candidate) => candidate.lines.includes(line));
      if (note !== undefined && !waiting.includes(note)) waiting.push(note);
      continue;
    }
    // The column text under a figure that interrupted a paragraph goes on with that
    // paragraph; the caption follows it, as the source has the figure after its paragraph.
    const resumes =
      suspended !== undefined &&
      interruptingCaption !== undefined &&
      open === interruptingCaption &&
      continues(line) &&
      line.gapBefore > 1.5 * line.size;
    if (resumes && suspended !== undefined && interruptingCaption !== undefined) {
      const caption = interruptingCaption;
      deferred.push(() => emitParagraph(caption));
      open = suspended;
      suspended = undefined;
      interruptingCaption = undefined;
    }
    const previousLine = open.kind === 'paragraph' ? open.last : undefined;
    // A paragraph runs on into the next column or page when its line filled the column.
    const runsOn =
      previousLine !== undefined &&
      line.gapBefore === Infinity &&
      previousLine.right > previousLine.columnRight - 2 &&
      line.x < line.columnLeft + 2 &&
      /^[\p{Ll}\p{N}(]/u.test(line.text);
    // An indented line after a sentence's end starts a paragraph, space or not.
    const indented =
      previousLine !== undefined &&
      line.x > previousLine.x + 0.6 * line.size &&
      line.x < previousLine.x + 3 * line.size &&
      /[.!?:]["')\]]?$/.test(previousLine.text);
    let newBlock = !resumes && ((line.gapBefore > 1.5 * line.size && !runsOn) || indented);
    const heading = headings.detect(line);
    if (heading) {
      close();
      // After numbered sections, "A Proofs" is an appendix, as LaTeX's \appendix numbers it.
      const appendix = /^([A-H])\s+(\p{Lu}.*)$/u.exec(heading.text);
      const text =
        appendix && sawNumberedSection ? `Appendix ${appendix[1]}: ${appendix[2]}` : heading.text;
      if (/^\d/.test(heading.text)) sawNumberedSection = true;
      builder.heading(text, heading.level);
      continue;
    }
    if (
      figureCaption.test(line.text) &&
      open.kind === 'paragraph' &&
      suspended === undefined &&
      runsOnLater(open.last, line)
    ) {
      suspended = open;
      interruptingCaption = { kind: 'paragraph', lines: [line.text], last: line };
      open = interruptingCaption;
      continue;
    }
    const table = tableCaption.exec(line.text);
    if (table) {
      if (open.kind === 'table' && open.table.caption === undefined) {
        open.table.caption = table[2];
        open.number = table[1];
        continue;
      }
      if (open.kind === 'paragraph' && runsOnLater(open.last, line)) {
        suspended = open;
        open = { kind: 'none' };
      } else close();
      open = {
        kind: 'table',
        table: { caption: table[2], rows: [] },
        captionOpen: true,
        number: table[1],
        page: line.page,
      };
      continue;
    }
    if (open.kind === 'table') {
      if (
        line.cells.length >= 2 ||
        (line.tableCells.length >= 2 && (!open.captionOpen || line.ruleAbove))
      ) {
        open.captionOpen = false;
        open.table.rows.push(line.tableCells);
        continue;
      }
      if (open.captionOpen && !line.ruleAbove) {
        open.table.caption = join(open.table.caption ?? '', line.text);
        continue;
      }
      if (open.table.rows.length === 0 && !newBlock && open.captionOpen) continue;
      if (suspended !== undefined && continues(line)) {
        const { table: found, number, page } = open;
        deferred.push(() => placeTable(found, number, page));
        open = suspended;
        suspended = undefined;
        newBlock = false;
      } else close();
    }
    const algorithm = algorithmCaption.exec(line.text);
    if (algorithm) {
      close();
      open = { kind: 'algorithm', caption: algorithm[1], steps: [], numbered: false };
      continue;
    }
    if (open.kind === 'algorithm') {
      const ends = newBlock || (line.ruleAbove && open.steps.length > 0);
      if (!ends) {
        const number = stepNumber.exec(line.text);
        const text = line.text.replace(stepNumber, '');
        const last = open.steps.at(-1);
        if (number) open.numbered = true;
        // In a numbered algorithm a line without a number continues the step above it; in
        // an unnumbered one, a line indented deeper than a step that opens no block does.
        const deeper =
          last !== undefined &&
          line.textX > last.x + 0.5 * line.size &&
          !/\b(do|then|else|repeat|begin|loop)$/.test(last.text) &&
          !/^(Require|Ensure|Input|Output):/.test(last.text);
        // A step wrapped at the column's right edge goes on, lower case, on the next line.
        const wrapped =
          last !== undefined &&
          last.right > line.columnRight - 1.5 * line.size &&
          last.right - line.columnLeft > 0.85 * (line.columnRight - line.columnLeft) &&
          !/\b(do|then|else|repeat|begin|loop)$/.test(last.text) &&
          /^\p{Ll}/u.test(text) &&
          !/^(for|while|if|else|end|return|repeat|until|loop|function|procedure)\b/.test(text);
        if (!number && last !== undefined && (open.numbered || deeper || wrapped)) {
          last.text = join(last.text, text);
          last.right = line.right;
        } else open.steps.push({ x: line.textX, text, right: line.right });
        continue;
      }
    }
    const rows = open.kind === 'none' || newBlock ? alignedRows(rest, index) : 0;
    if (rows >= 3 || (rows >= 2 && line.ruleAbove)) {
      close();
      open = {
        kind: 'table',
        table: { rows: [line.tableCells] },
        captionOpen: false,
        page: line.page,
      };
      continue;
    }
    // Display equations are set off by space (or numbered, or set in a monospace font); a
    // math-looking line that runs on from a paragraph is that paragraph's continuation.
    const continuesParagraph = open.kind === 'paragraph' && !newBlock && !line.monospace;
    const mathematical =
      line.numbered === true ||
      (line.mathShare > 0.4 && line.text.length >= 3) ||
      looksMathematical(line.text) ||
      (line.monospace && /[=\\^_]/.test(line.text));
    if (mathematical && (!continuesParagraph || line.numbered === true)) {
      if (open.kind === 'equation' && !newBlock) open.parts.push(line.text);
      else if (open.kind === 'equation' && alignedRow(open.last, line)) {
        // The next row of an `align`: one display, rows separated as LaTeX writes them.
        open.parts.push('\\\\', line.text);
      } else {
        close();
        open = { kind: 'equation', parts: [line.text], last: line };
      }
      open.last = line;
      continue;
    }
    if (open.kind !== 'paragraph' || newBlock) {
      close();
      open = { kind: 'paragraph', lines: [], last: line };
    }
    const previous = open.lines.at(-1);
    if (previous !== undefined && /\p{L}-$/u.test(previous)) {
      open.lines[open.lines.length - 1] = words.join(previous, line.text);
    } else open.lines.push(line.text);
    open.last = line;
  }
  close();
  flushFootnotes();
  floats.finish();
  return builder.build({ format: 'pdf', path });
}

/** Reads a PDF paper from its bytes. */
export async function readPdf(data: Uint8Array, path: string): Promise<PaperDocument> {
  return layoutPdfLines(await readPdfLines(data, path), path);
}
