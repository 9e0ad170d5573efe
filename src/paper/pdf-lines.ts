import type { PdfItem } from './pdf-columns.js';
import { readingOrder } from './pdf-columns.js';
import { PaperError } from './paper-error.js';

/** One line of a PDF page, rebuilt from positioned text items. */
export interface PdfLine {
  page: number;
  /** Left edge and baseline, in PDF points (y grows upwards). */
  x: number;
  y: number;
  /** Font size (the largest item's). */
  size: number;
  text: string;
  /** The text split where items are far apart: table cells, or an equation's number. */
  cells: string[];
  /** True when every item is in a monospace font. */
  monospace: boolean;
  /** Distance from the previous line's baseline on the same page; Infinity on a new page. */
  gapBefore: number;
  pageHeight: number;
}

interface PdfjsTextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

function isTextItem(item: unknown): item is PdfjsTextItem {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
}

/** Items of one baseline, left to right, joined with spaces where there is a gap. */
function buildLine(items: PdfItem[], page: number, pageHeight: number): Omit<PdfLine, 'gapBefore'> {
  items.sort((first, second) => first.x - second.x);
  const size = Math.max(...items.map((item) => item.size));
  const cells: string[] = [];
  let cell = '';
  let end: number | undefined;
  for (const item of items) {
    const gap = end === undefined ? 0 : item.x - end;
    if (end !== undefined && gap > 1.2 * size) {
      cells.push(cell.trim());
      cell = '';
    } else if (
      end !== undefined &&
      gap > 0.15 * item.size &&
      !/\s$/.test(cell) &&
      !/^\s/.test(item.text)
    ) {
      cell += ' ';
    }
    cell += item.text;
    end = item.x + item.width;
  }
  cells.push(cell.trim());
  const nonEmpty = cells.filter((text) => text.length > 0);
  return {
    page,
    pageHeight,
    x: items[0]?.x ?? 0,
    y: items[0]?.y ?? 0,
    size,
    text: nonEmpty.join(' ').replace(/\s+/g, ' '),
    cells: nonEmpty,
    monospace: items.every((item) => item.monospace || item.text.trim().length === 0),
  };
}

/**
 * Reads a PDF's text layer as lines, in reading order (top to bottom per page). Encrypted
 * PDFs and PDFs without text (scans) are PaperErrors that say what to run first.
 */
export async function readPdfLines(data: Uint8Array, path: string): Promise<PdfLine[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
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
  const lines: PdfLine[] = [];
  try {
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const pageHeight = page.view[3] ?? 792;
      const content = await page.getTextContent();
      const items: PdfItem[] = [];
      for (const raw of content.items) {
        // Whitespace items only fill gaps; the gaps themselves separate words and cells.
        if (!isTextItem(raw) || raw.str.trim().length === 0) continue;
        const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = raw.transform.map(Number);
        // Rotated text (arXiv's side stamp, axis labels) is not part of the reading flow.
        if (Math.abs(b) > 0.01 * Math.abs(a) || Math.abs(c) > 0.01 * Math.abs(d)) continue;
        const family = content.styles[raw.fontName]?.fontFamily ?? '';
        items.push({
          // NFKC turns ligatures (ﬁ, ﬂ) and compatibility forms back into plain letters.
          text: raw.str.normalize('NFKC'),
          x,
          y,
          width: raw.width,
          size: Math.hypot(a, b),
          monospace: /mono|courier/i.test(family) || /courier|mono/i.test(raw.fontName),
        });
      }
      const groups = readingOrder(items, page.view[2] ?? 612);
      let previous: number | undefined;
      for (const group of groups) {
        const line = buildLine(group, number, pageHeight);
        if (line.text.length === 0) continue;
        // Moving up the page means a new column: a new block, like a new page.
        const gap = previous === undefined || previous <= line.y ? Infinity : previous - line.y;
        lines.push({ ...line, gapBefore: gap });
        previous = line.y;
      }
      page.cleanup();
    }
  } finally {
    await pdf.destroy();
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
