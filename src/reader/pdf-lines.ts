import type { PdfItem, PdfRule } from './pdf-columns.js';
import { readingOrder } from './pdf-columns.js';
import { isComputerModernRoman, isMathFont } from './pdf-fonts.js';
import { composeMath } from './pdf-math.js';
import type { PdfPageContent } from './pdf-page-content.js';
import { readPageContent } from './pdf-page-content.js';
import { findScripts, renderCells, type RenderedCell } from './pdf-scripts.js';
import { PaperError } from './paper-error.js';

/** Where a cell lies across the page, in PDF points. */
export interface CellSpan {
  left: number;
  right: number;
}

/** One line of a PDF page, rebuilt from positioned text items. */
export interface PdfLine {
  page: number;
  /** Left edge and baseline, in PDF points (y grows upwards). */
  x: number;
  y: number;
  /** Font size (the largest base item's; scripts aside). */
  size: number;
  text: string;
  /** The text split where items are far apart: table cells, or an equation's number. */
  cells: string[];
  /** Left edge of each cell. */
  cellStarts: number[];
  /**
   * The text split at smaller gaps (0.7× the font size): a table row's cells, where a
   * narrow centred column stands closer to its neighbours than an equation's number does.
   */
  tableCells: string[];
  /** Where each of `tableCells` lies across the page, left and right edge. */
  tableSpans: CellSpan[];
  /** Right edge of the line's text. */
  right: number;
  /** Left edge of the text after an algorithm's line number ("3:"), else x. */
  textX: number;
  /** True when every item is in a monospace font. */
  monospace: boolean;
  /** True when every item is in a bold font. */
  bold: boolean;
  /** Share of the line's characters set in math fonts (or built as math). */
  mathShare: number;
  /** Distance from the previous line's baseline on the same page; Infinity on a new page. */
  gapBefore: number;
  pageHeight: number;
  /** Right edge of the line's column (or of the page's text, on a one-column page). */
  columnRight: number;
  columnLeft: number;
  /** A horizontal rule (booktabs, an algorithm's frame) runs between this line and the one above. */
  ruleAbove: boolean;
  /** Set under a footnote separator, at the bottom of a column. */
  footnote: boolean;
  /** The document's body font size (most characters are set in it). */
  bodySize: number;
  /**
   * Where the line's first relation sign (=, ≤, ∼, …) stands, in PDF points: the rows of an
   * `align` share it, while separate centred equations almost never do.
   */
  relationX?: number;
}

/** A table row's cells and where each lies. */
function tableCellsOf(rendered: RenderedCell[]): Pick<PdfLine, 'tableCells' | 'tableSpans'> {
  return {
    tableCells: rendered.map((cell) => attachMarks(cell.text)),
    tableSpans: rendered.map((cell) => ({ left: cell.x, right: cell.right })),
  };
}

const relationSign = /[=<>≤≥≈∼≃≡∝∈←→⇒⇔]/u;

/** The x of the first relation sign among a line's base items, interpolated within its item. */
function relationPosition(items: { text: string; x: number; width: number }[]): number | undefined {
  for (const item of [...items].sort((first, second) => first.x - second.x)) {
    const characters = [...item.text];
    const index = characters.findIndex((character) => relationSign.test(character));
    if (index >= 0) return item.x + (item.width * index) / Math.max(1, characters.length);
  }
  return undefined;
}

/**
 * A combining mark drawn as an item of its own (Chromium's U+0303 after its letter) goes on
 * the letter before it, composed where Unicode has the letter.
 */
function attachMarks(text: string): string {
  return text.replace(/\s+(?=\p{M})/gu, '').normalize('NFC');
}

function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
}

function characters(item: PdfItem): number {
  return item.text.replace(/\s/g, '').length;
}

/** The font and size most characters are set in. */
function dominant(pages: PdfPageContent[]): { font: string; size: number } {
  const fonts = new Map<string, number>();
  const sizes = new Map<number, number>();
  for (const item of pages.flatMap((page) => page.items)) {
    const font = item.font.replace(/^[A-Z]{6}\+/, '');
    fonts.set(font, (fonts.get(font) ?? 0) + characters(item));
    const size = Math.round(item.size * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + characters(item));
  }
  const top = <Key>(counts: Map<Key, number>): Key | undefined =>
    [...counts.entries()].sort((first, second) => second[1] - first[1])[0]?.[0];
  return { font: top(fonts) ?? '', size: top(sizes) ?? 10 };
}

/**
 * Base items (not scripts) grouped by baseline, each with the scripts hanging from it,
 * top to bottom.
 */
function linesOf(run: PdfItem[]): PdfItem[][] {
  const links = findScripts(run);
  const bases = run
    .filter((item) => !links.has(item))
    .sort((first, second) => second.y - first.y || first.x - second.x);
  const groups: PdfItem[][] = [];
  for (const item of bases) {
    const group = groups.at(-1);
    const anchor = group?.[0];
    if (group && anchor && Math.abs(anchor.y - item.y) < 0.3 * Math.max(anchor.size, item.size)) {
      group.push(item);
    } else groups.push([item]);
  }
  const rootOf = (item: PdfItem): PdfItem => {
    let current = item;
    for (let link = links.get(current); link !== undefined; link = links.get(current)) {
      current = link.base;
    }
    return current;
  };
  const groupOf = new Map<PdfItem, PdfItem[]>();
  for (const group of groups) for (const item of group) groupOf.set(item, group);
  for (const script of run.filter((item) => links.has(item))) {
    groupOf.get(rootOf(script))?.push(script);
  }
  return groups;
}

/** The most common value, to the point; undefined when none occurs three times. */
function mostCommon(values: number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const value of values)
    counts.set(Math.round(value), (counts.get(Math.round(value)) ?? 0) + 1);
  const top = [...counts.entries()].sort((first, second) => second[1] - first[1])[0];
  if (top === undefined || top[1] < 3) return undefined;
  return Math.min(...values.filter((value) => Math.round(value) === top[0]));
}

/** The footnote separator of a column: a short rule at its left edge in the page's lower part. */
function footnoteRule(
  rules: PdfRule[],
  left: number,
  right: number,
  pageHeight: number,
): PdfRule | undefined {
  return rules.find(
    (rule) =>
      Math.abs(rule.x0 - left) < 2 &&
      rule.x1 - rule.x0 > 0.15 * (right - left) &&
      rule.x1 - rule.x0 < 0.6 * (right - left) &&
      rule.y < 0.35 * pageHeight,
  );
}

function layoutPage(content: PdfPageContent, bodySize: number): Omit<PdfLine, 'gapBefore'>[] {
  const { items, rules } = composeMath(content.items, content.rules);
  const lines: Omit<PdfLine, 'gapBefore'>[] = [];
  for (const run of readingOrder(items, content.width)) {
    const firstOfRun = lines.length;
    // The column's left edge is where most of its items start (a centred page number
    // below the column starts elsewhere).
    const left = mostCommon(run.map((item) => item.x)) ?? Math.min(...run.map((item) => item.x));
    const right = Math.max(...run.map((item) => item.x + item.width));
    const separator = footnoteRule(rules, left, right, content.height);
    let previousY: number | undefined;
    for (const group of linesOf(run)) {
      const links = findScripts(group);
      const rendered = renderCells(group, links);
      const cells = rendered.map((cell) => attachMarks(cell.text));
      const text = cells.join(' ').replace(/\s+/g, ' ').trim();
      if (text.length === 0) continue;
      const baseItems = group.filter((item) => !links.has(item));
      const y = Math.max(...baseItems.map((item) => item.y));
      const size = Math.max(...baseItems.map((item) => item.size));
      const total = group.reduce((sum, item) => sum + characters(item), 0);
      const math = group
        .filter((item) => item.math)
        .reduce((sum, item) => sum + characters(item), 0);
      const sorted = [...baseItems].sort((first, second) => first.x - second.x);
      const ruleAbove =
        previousY !== undefined &&
        rules.some(
          (rule) =>
            rule.y > y &&
            rule.y < (previousY ?? y) &&
            rule.x1 - rule.x0 > 0.3 * (right - left) &&
            rule.x0 < (sorted[0]?.x ?? left) + 2,
        );
      const numbered = /^\d+:$/.test(sorted[0]?.text.trim() ?? '');
      lines.push({
        page: content.page,
        right: Math.max(...group.map((item) => item.x + item.width)),
        textX: (numbered ? sorted[1]?.x : undefined) ?? sorted[0]?.x ?? left,
        pageHeight: content.height,
        x: sorted[0]?.x ?? left,
        y,
        size,
        text,
        cells,
        cellStarts: rendered.map((cell) => cell.x),
        ...tableCellsOf(renderCells(group, links, 0.7)),
        monospace: baseItems.every((item) => item.monospace || item.text.trim().length === 0),
        bold: baseItems.every((item) => item.bold || item.text.trim().length === 0),
        mathShare: total === 0 ? 0 : math / total,
        columnLeft: left,
        columnRight: right,
        ruleAbove,
        footnote: separator !== undefined && y < separator.y && size < 0.95 * bodySize,
        bodySize,
        ...optionalRelation(relationPosition(baseItems)),
      });
      previousY = y;
    }
    // The column's right edge is where its justified lines end (the most common right edge),
    // not the end of a line that overflows into the margin.
    const runLines = lines.slice(firstOfRun);
    const edges = new Map<number, number>();
    for (const line of runLines)
      edges.set(Math.round(line.right), (edges.get(Math.round(line.right)) ?? 0) + 1);
    const common = [...edges.entries()].sort((first, second) => second[1] - first[1])[0];
    // With fewer lines, where the lines that start at its left edge end (a page number
    // centred under a short column is not its edge).
    const leftStarting = runLines.filter((line) => line.x < left + 0.3 * (right - left));
    const edge =
      common !== undefined && common[1] >= 3
        ? common[0]
        : leftStarting.length > 0
          ? Math.max(...leftStarting.map((line) => line.right))
          : undefined;
    if (edge !== undefined) for (const line of runLines) line.columnRight = edge;
  }
  return lines;
}

/**
 * Reads a PDF's text layer as lines, in reading order (top to bottom per column), with
 * sub- and superscripts, fractions and roots rebuilt as LaTeX. Encrypted PDFs and PDFs
 * without text (scans) are PaperErrors that say what to run first.
 */
export async function readPdfLines(data: Uint8Array, path: string): Promise<PdfLine[]> {
  const { getDocument, OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
  });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (error) {
    if (errorName(error) === 'PasswordException') {
      throw new PaperError(
        'encrypted',
        path,
        `The PDF ${path} is encrypted: decrypt it first, e.g. with qpdf --decrypt ${path} decrypted.pdf (add --password=… if it needs one).`,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new PaperError(
      'unreadable',
      path,
      `Cannot read the PDF ${path}: ${reason}. Is the file complete?`,
    );
  }
  const pages: PdfPageContent[] = [];
  try {
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      pages.push(await readPageContent(page, number, OPS));
      page.cleanup();
    }
  } finally {
    await pdf.destroy();
  }
  const body = dominant(pages);
  // Computer Modern roman is math only where the body is set in another font (Times):
  // there it marks the digits and operators of formulas.
  const romanIsMath = !isComputerModernRoman(body.font);
  for (const item of pages.flatMap((page) => page.items)) {
    item.math =
      isMathFont(item.font) ||
      item.extension === true ||
      (romanIsMath && isComputerModernRoman(item.font));
  }
  const lines: PdfLine[] = [];
  for (const content of pages) {
    let previous: number | undefined;
    for (const line of layoutPage(content, body.size)) {
      // Moving up the page means a new column: a new block, like a new page.
      const gap = previous === undefined || previous <= line.y ? Infinity : previous - line.y;
      lines.push({ ...line, gapBefore: gap });
      previous = line.y;
    }
  }
  if (lines.length === 0) {
    throw new PaperError(
      'no-text',
      path,
      `The PDF ${path} has no text layer (a scan?): run OCR first, e.g. ocrmypdf ${path} with-text.pdf.`,
    );
  }
  return lines;
}

const optionalRelation = (x: number | undefined): { relationX?: number } =>
  x === undefined ? {} : { relationX: x };
