import { Dehyphenator } from './dehyphenate.js';
import { DocumentBuilder } from './document-builder.js';
import type { PaperDocument, PaperTable } from './document.js';
import { looksMathematical } from './math-line.js';
import { splitAuthors } from './normalize.js';
import type { CellSpan, PdfLine } from './pdf-lines.js';
import { alignTableColumns } from './pdf-table-columns.js';
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
  | {
      kind: 'table';
      table: PaperTable;
      /** Where each cell of each row lies, to put back the blank cells when the table ends. */
      spans: CellSpan[][];
      /** Each row's distance from the line above it. */
      gaps: number[];
      captionOpen: boolean;
      number?: string;
      page: number;
    }
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

type OpenParagraph = Open & { kind: 'paragraph' };
type OpenTable = Open & { kind: 'table' };

/**
 * Whether a line stands too far below a table's rows to be one of them: the paragraph
 * after the table, whose run-in heading ("Smoke configuration. To check…") reads as two
 * cells. Rows are evenly spaced (a rule or a group's extra space adds less than half a
 * row); the text after a table's bottom rule starts well over twice a row's spacing below.
 */
function pastTheRows(open: OpenTable, line: Line): boolean {
  const spacing = open.gaps
    .slice(1)
    .filter((gap) => Number.isFinite(gap))
    .sort((first, second) => first - second);
  const typical = spacing[Math.floor(spacing.length / 2)];
  return typical !== undefined && Number.isFinite(line.gapBefore) && line.gapBefore > 2.5 * typical;
}

/** The table as it ends: its rows with the blank cells the PDF left out put back. */
function withColumns(open: OpenTable): PaperTable {
  return { ...open.table, rows: alignTableColumns(open.table.rows, open.spans) };
}
type OpenAlgorithm = Open & { kind: 'algorithm' };

/** What the layout knows of the line in hand, shared by the steps that may take it. */
interface LineContext {
  line: Line;
  index: number;
  /** Whether the line starts a new block (set off by space, or indented after a sentence). */
  newBlock: boolean;
}

/** An algorithm's steps as text: indented from the statements' left edge. */
function algorithmText(algorithm: OpenAlgorithm, body: number): string {
  // "Require:" lines stand at the margin, so the statements' edge is measured without them.
  const statements = algorithm.steps.filter(
    (step) => !/^(Require|Ensure|Input|Output):/.test(step.text),
  );
  const left = Math.min(
    ...(statements.length > 0 ? statements : algorithm.steps).map((step) => step.x),
  );
  const space = body * 0.6;
  return algorithm.steps
    .map((step) => `${' '.repeat(Math.max(0, Math.round((step.x - left) / space)))}${step.text}`)
    .join('\n');
}

/**
 * The layout of a paper's lines, one line at a time: the open block, the blocks a float
 * interrupted, and the footnotes waiting for their place.
 */
class PdfLayout {
  private readonly builder = new DocumentBuilder();
  private readonly body: number;
  private readonly headings: HeadingDetector;
  private readonly words: Dehyphenator;
  private readonly notes: Footnote[];
  private readonly used = new Set<Footnote>();
  private readonly waiting: Footnote[] = [];
  private readonly floats: FloatPlacement;
  private readonly deferred: (() => void)[] = [];
  private open: Open = { kind: 'none' };
  private sawNumberedSection = false;
  // A paragraph interrupted by a float at the top of the next column: the float is built
  // after the paragraph, as the LaTeX source has it.
  private suspended: OpenParagraph | undefined;
  // The caption of a full-width figure that interrupted `suspended` at the top of a page.
  private interruptingCaption: OpenParagraph | undefined;

  constructor(
    private readonly lines: Line[],
    title: string,
    authors: string[],
  ) {
    this.builder.title = title;
    this.builder.authors = authors;
    this.body = bodySize(lines);
    this.headings = new HeadingDetector(lines, this.body);
    this.words = new Dehyphenator(lines.map((line) => line.text));
    // Footnotes go where their mark is, as "(text)" the way the LaTeX reader writes them;
    // one whose mark is not found follows the paragraph it interrupts.
    this.notes = collectFootnotes(lines, this.join);
    this.floats = new FloatPlacement(this.builder, lines);
  }

  private readonly join = (previous: string, next: string): string =>
    /\p{L}-$/u.test(previous) ? this.words.join(previous, next) : `${previous} ${next}`;

  build(path: string): PaperDocument {
    for (const [index, line] of this.lines.entries()) {
      this.floats.position = index;
      this.take(line, index);
    }
    this.close();
    this.flushFootnotes();
    this.floats.finish();
    return this.builder.build({ format: 'pdf', path });
  }

  /** Lays one line out: the first step that recognises it takes it. */
  private take(line: Line, index: number): void {
    if (line.footnote) {
      const note = this.notes.find((candidate) => candidate.lines.includes(line));
      if (note !== undefined && !this.waiting.includes(note)) this.waiting.push(note);
      return;
    }
    const resumes = this.resumeAfterFigure(line);
    const context: LineContext = { line, index, newBlock: !resumes && this.startsBlock(line) };
    if (
      this.heading(line) ||
      this.figureInterrupts(line) ||
      this.tableCaption(line) ||
      this.tableRow(context) ||
      this.algorithm(context) ||
      this.uncaptionedTable(context) ||
      this.equation(context)
    )
      return;
    this.paragraphLine(context);
  }

  /**
   * The column text under a figure that interrupted a paragraph goes on with that
   * paragraph; the caption follows it, as the source has the figure after its paragraph.
   */
  private resumeAfterFigure(line: Line): boolean {
    const { suspended, interruptingCaption } = this.suspendedByFigure() ?? {};
    if (suspended === undefined || interruptingCaption === undefined) return false;
    if (!continues(line) || !(line.gapBefore > 1.5 * line.size)) return false;
    this.deferred.push(() => this.emitParagraph(interruptingCaption));
    this.open = suspended;
    this.suspended = undefined;
    this.interruptingCaption = undefined;
    return true;
  }

  /** The paragraph a figure interrupted and that figure's caption, while the caption is open. */
  private suspendedByFigure():
    { suspended: OpenParagraph; interruptingCaption: OpenParagraph } | undefined {
    const { suspended, interruptingCaption } = this;
    if (suspended === undefined || interruptingCaption === undefined) return undefined;
    return this.open === interruptingCaption ? { suspended, interruptingCaption } : undefined;
  }

  /** Whether a line starts a new block: set off by space, or indented after a sentence's end. */
  private startsBlock(line: Line): boolean {
    const previousLine = this.open.kind === 'paragraph' ? this.open.last : undefined;
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
    return (line.gapBefore > 1.5 * line.size && !runsOn) || indented;
  }

  private heading(line: Line): boolean {
    const heading = this.headings.detect(line);
    if (!heading) return false;
    this.close();
    // After numbered sections, "A Proofs" is an appendix, as LaTeX's \appendix numbers it.
    const appendix = /^([A-H])\s+(\p{Lu}.*)$/u.exec(heading.text);
    const text =
      appendix && this.sawNumberedSection
        ? `Appendix ${appendix[1]}: ${appendix[2]}`
        : heading.text;
    if (/^\d/.test(heading.text)) this.sawNumberedSection = true;
    this.builder.heading(text, heading.level);
    return true;
  }

  /** A figure caption at the top of a column interrupts the paragraph that runs on past it. */
  private figureInterrupts(line: Line): boolean {
    if (
      !figureCaption.test(line.text) ||
      this.open.kind !== 'paragraph' ||
      this.suspended !== undefined ||
      !runsOnLater(this.open.last, line)
    )
      return false;
    this.suspended = this.open;
    this.interruptingCaption = { kind: 'paragraph', lines: [line.text], last: line };
    this.open = this.interruptingCaption;
    return true;
  }

  private tableCaption(line: Line): boolean {
    const table = tableCaption.exec(line.text);
    if (!table) return false;
    if (this.open.kind === 'table' && this.open.table.caption === undefined) {
      this.open.table.caption = table[2];
      this.open.number = table[1];
      return true;
    }
    if (this.open.kind === 'paragraph' && runsOnLater(this.open.last, line)) {
      this.suspended = this.open;
      this.open = { kind: 'none' };
    } else this.close();
    this.open = {
      kind: 'table',
      table: { caption: table[2], rows: [] },
      spans: [],
      gaps: [],
      captionOpen: true,
      number: table[1],
      page: line.page,
    };
    return true;
  }

  /** A line while a table is open: a row, more of its caption, or the end of the table. */
  private tableRow(context: LineContext): boolean {
    if (this.open.kind !== 'table') return false;
    const open: OpenTable = this.open;
    const { line } = context;
    if (
      (line.cells.length >= 2 ||
        (line.tableCells.length >= 2 && (!open.captionOpen || line.ruleAbove))) &&
      !pastTheRows(open, line)
    ) {
      open.captionOpen = false;
      open.table.rows.push(line.tableCells);
      open.spans.push(line.tableSpans);
      open.gaps.push(line.gapBefore);
      return true;
    }
    if (open.captionOpen && !line.ruleAbove) {
      open.table.caption = this.join(open.table.caption ?? '', line.text);
      return true;
    }
    if (open.table.rows.length === 0 && !context.newBlock && open.captionOpen) return true;
    if (this.suspended !== undefined && continues(line)) {
      const { number, page } = open;
      const found = withColumns(open);
      this.deferred.push(() => this.placeTable(found, number, page));
      this.open = this.suspended;
      this.suspended = undefined;
      context.newBlock = false;
    } else this.close();
    return false;
  }

  /** An algorithm's caption opens it; its lines are steps until a new block or a rule. */
  private algorithm(context: LineContext): boolean {
    const { line } = context;
    const caption = algorithmCaption.exec(line.text);
    if (caption) {
      this.close();
      this.open = { kind: 'algorithm', caption: caption[1], steps: [], numbered: false };
      return true;
    }
    if (this.open.kind !== 'algorithm') return false;
    const open: OpenAlgorithm = this.open;
    if (context.newBlock || (line.ruleAbove && open.steps.length > 0)) return false;
    const number = stepNumber.exec(line.text);
    const text = line.text.replace(stepNumber, '');
    const last = open.steps.at(-1);
    if (number) open.numbered = true;
    if (!number && last !== undefined && (open.numbered || continuesStep(last, line, text))) {
      last.text = this.join(last.text, text);
      last.right = line.right;
    } else open.steps.push({ x: line.textX, text, right: line.right });
    return true;
  }

  /** Three rows of aligned cells (two under a rule) are a table without a caption. */
  private uncaptionedTable(context: LineContext): boolean {
    const { line, index } = context;
    const rows = this.open.kind === 'none' || context.newBlock ? alignedRows(this.lines, index) : 0;
    if (rows < 3 && !(rows >= 2 && line.ruleAbove)) return false;
    this.close();
    this.open = {
      kind: 'table',
      table: { rows: [line.tableCells] },
      spans: [line.tableSpans],
      gaps: [line.gapBefore],
      captionOpen: false,
      page: line.page,
    };
    return true;
  }

  /**
   * Display equations are set off by space (or numbered, or set in a monospace font); a
   * math-looking line that runs on from a paragraph is that paragraph's continuation.
   */
  private equation(context: LineContext): boolean {
    const { line, newBlock } = context;
    const continuesParagraph = this.open.kind === 'paragraph' && !newBlock && !line.monospace;
    const mathematical =
      line.numbered === true ||
      (line.mathShare > 0.4 && line.text.length >= 3) ||
      looksMathematical(line.text) ||
      (line.monospace && /[=\\^_]/.test(line.text));
    if (!mathematical || (continuesParagraph && line.numbered !== true)) return false;
    if (this.open.kind === 'equation' && !newBlock) this.open.parts.push(line.text);
    else if (this.open.kind === 'equation' && alignedRow(this.open.last, line)) {
      // The next row of an `align`: one display, rows separated as LaTeX writes them.
      this.open.parts.push('\\\\', line.text);
    } else {
      this.close();
      this.open = { kind: 'equation', parts: [line.text], last: line };
    }
    this.open.last = line;
    return true;
  }

  private paragraphLine({ line, newBlock }: LineContext): void {
    if (this.open.kind !== 'paragraph' || newBlock) {
      this.close();
      this.open = { kind: 'paragraph', lines: [], last: line };
    }
    const open: OpenParagraph = this.open;
    const previous = open.lines.at(-1);
    if (previous !== undefined && /\p{L}-$/u.test(previous)) {
      open.lines[open.lines.length - 1] = this.words.join(previous, line.text);
    } else open.lines.push(line.text);
    open.last = line;
  }

  private withFootnotes(text: string): string {
    return text.replace(footnoteMark, (whole, word: string, mark: string) => {
      const note = this.notes.find(
        (candidate) => candidate.mark === mark && !this.used.has(candidate),
      );
      if (note === undefined) return whole;
      this.used.add(note);
      return `${word} (${note.text})`;
    });
  }

  private flushFootnotes(): void {
    for (const note of this.waiting.splice(0)) {
      if (!this.used.has(note))
        this.builder.paragraph(note.mark === '' ? note.text : `${note.mark} ${note.text}`);
      this.used.add(note);
    }
  }

  private placeTable(table: PaperTable, number: string | undefined, page: number): void {
    this.floats.place(number === undefined ? undefined : `table ${number}`, page, (at) =>
      at === undefined ? this.builder.table(table) : this.builder.tableAt(at, table),
    );
  }

  private emitParagraph(paragraph: OpenParagraph): void {
    const text = this.withFootnotes(paragraph.lines.join(' ').replace(/\s+/g, ' '));
    // A figure's caption is placed like a table.
    const figure = captionKey(text);
    if (figure?.startsWith('figure') === true) {
      this.floats.place(figure, paragraph.last.page, (at) =>
        at === undefined ? this.builder.paragraph(text) : this.builder.paragraphAt(at, text),
      );
    } else this.builder.paragraph(text);
    for (const action of this.deferred.splice(0)) action();
    if (figure === undefined) this.floats.paragraphPlaced(text, paragraph.last.page);
  }

  /** Ends the open block (and a paragraph a float suspended) and places what waited for it. */
  private close(): void {
    this.interruptingCaption = undefined;
    if (this.suspended !== undefined) {
      this.emitParagraph(this.suspended);
      this.suspended = undefined;
    }
    const open = this.open;
    if (open.kind === 'paragraph') this.emitParagraph(open);
    if (open.kind === 'equation') this.builder.equation(open.parts.join(' '));
    if (open.kind === 'table') this.placeTable(withColumns(open), open.number, open.page);
    if (open.kind === 'algorithm')
      this.builder.algorithm({ caption: open.caption, text: algorithmText(open, this.body) });
    this.open = { kind: 'none' };
    this.flushFootnotes();
  }
}

/**
 * Whether an unnumbered algorithm line continues the step above it: in an unnumbered
 * algorithm a line indented deeper than a step that opens no block does, and so does a step
 * wrapped at the column's right edge, going on in lower case.
 */
function continuesStep(last: OpenAlgorithm['steps'][number], line: Line, text: string): boolean {
  const opensBlock = /\b(do|then|else|repeat|begin|loop)$/.test(last.text);
  const deeper =
    line.textX > last.x + 0.5 * line.size &&
    !opensBlock &&
    !/^(Require|Ensure|Input|Output):/.test(last.text);
  const wrapped =
    last.right > line.columnRight - 1.5 * line.size &&
    last.right - line.columnLeft > 0.85 * (line.columnRight - line.columnLeft) &&
    !opensBlock &&
    /^\p{Ll}/u.test(text) &&
    !/^(for|while|if|else|end|return|repeat|until|loop|function|procedure)\b/.test(text);
  return deeper || wrapped;
}

/** Lays PDF lines out as a document: headings, paragraphs, equations, tables, algorithms. */
export function layoutPdfLines(lines: PdfLine[], path: string): PaperDocument {
  const dropped = furniture(lines);
  const content: Line[] = lines.filter((line) => !dropped.has(line)).map(withoutEquationNumber);
  const { title, authors, rest } = titleBlock(content);
  return new PdfLayout(rest, title, authors).build(path);
}

/** Reads a PDF paper from its bytes. */
export async function readPdf(data: Uint8Array, path: string): Promise<PaperDocument> {
  return layoutPdfLines(await readPdfLines(data, path), path);
}
