import { DocumentBuilder } from './document-builder.js';
import type { PaperDocument, PaperTable } from './document.js';
import { looksMathematical } from './math-line.js';
import { splitAuthors } from './normalize.js';
import type { PdfLine } from './pdf-lines.js';
import { readPdfLines } from './pdf-lines.js';

const numberedHeading = /^(\d+(?:\.\d+){0,2})\.?\s+([A-Z][^]{0,80})$/;
const tableCaption = /^Table\s+\d+\s*[.:]\s*(.*)$/i;
const algorithmCaption = /^Algorithm\s+\d+\s*[.:]?\s*(.*)$/i;
const equationNumber = /^\(\d+[a-z]?\)$/;

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

function nearEdge(line: PdfLine): boolean {
  return line.y < 60 || line.y > line.pageHeight - 60;
}

/**
 * Page furniture: page numbers, and running headers or footers (the same text, digits
 * aside, at the top or bottom of two or more pages).
 */
function furniture(lines: PdfLine[]): Set<PdfLine> {
  const pagesByText = new Map<string, Set<number>>();
  const key = (line: PdfLine): string => line.text.replace(/\d+/g, '#').toLowerCase();
  for (const line of lines) {
    if (!nearEdge(line)) continue;
    const pages = pagesByText.get(key(line)) ?? new Set<number>();
    pages.add(line.page);
    pagesByText.set(key(line), pages);
  }
  return new Set(
    lines.filter(
      (line) =>
        nearEdge(line) &&
        (/^(page\s+)?\d{1,4}$/i.test(line.text) || (pagesByText.get(key(line))?.size ?? 0) >= 2),
    ),
  );
}

/** Drops equation numbers like "(3)" at the right edge, which arrive as a separate cell. */
function withoutEquationNumber(line: PdfLine): PdfLine {
  const last = line.cells.at(-1);
  if (line.cells.length < 2 || last === undefined || !equationNumber.test(last)) return line;
  const cells = line.cells.slice(0, -1);
  return { ...line, cells, text: cells.join(' ') };
}

interface Heading {
  text: string;
  level: number;
}

class HeadingDetector {
  private readonly levelsBySize = new Map<number, number>();
  private readonly sizes: number[];

  constructor(
    lines: PdfLine[],
    private readonly body: number,
  ) {
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

  private candidate(line: PdfLine): boolean {
    if (line.text.length > 100 || /[.,;:]$/.test(line.text) || line.cells.length > 1) return false;
    if (line.monospace || looksMathematical(line.text)) return false;
    if (round(line.size) >= this.body + 1) return true;
    return /^abstract$/i.test(line.text) || numberedHeading.test(line.text);
  }

  detect(line: PdfLine): Heading | undefined {
    if (!this.candidate(line)) return undefined;
    const numbered = numberedHeading.exec(line.text);
    if (numbered?.[1]) return { text: line.text, level: numbered[1].split('.').length };
    const bySize = this.levelsBySize.get(round(line.size));
    if (bySize !== undefined) return { text: line.text, level: bySize };
    const rank = this.sizes.indexOf(round(line.size));
    return { text: line.text, level: Math.min(Math.max(rank, 0) + 1, 3) };
  }
}

/** The title (largest text at the top of page 1) and the author lines beneath it. */
function titleBlock(lines: PdfLine[]): { title: string; authors: string[]; rest: PdfLine[] } {
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
  const authorLines: string[] = [];
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
    if (authorLines.join(' ').length + line.text.length > 200) break;
    authorLines.push(line.text);
    next += 1;
  }
  // Only the first line is names; the rest are usually affiliations and e-mail addresses.
  const authors = authorLines.length > 0 ? splitAuthors(authorLines[0] ?? '') : [];
  return { title, authors, rest: [...lines.slice(0, start), ...lines.slice(next)] };
}

type Open =
  | { kind: 'none' }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'equation'; parts: string[] }
  | { kind: 'table'; table: PaperTable }
  | { kind: 'algorithm'; caption?: string; steps: PdfLine[] };

/** Lays PDF lines out as a document: headings, paragraphs, equations, tables, algorithms. */
export function layoutPdfLines(lines: PdfLine[], path: string): PaperDocument {
  const dropped = furniture(lines);
  const content = lines.filter((line) => !dropped.has(line)).map(withoutEquationNumber);
  const builder = new DocumentBuilder();
  const { title, authors, rest } = titleBlock(content);
  builder.title = title;
  builder.authors = authors;
  const body = bodySize(rest);
  const headings = new HeadingDetector(rest, body);
  let open: Open = { kind: 'none' };

  const close = (): void => {
    if (open.kind === 'paragraph') builder.paragraph(open.lines.join(' ').replace(/\s+/g, ' '));
    if (open.kind === 'equation') builder.equation(open.parts.join(' '));
    if (open.kind === 'table') builder.table(open.table);
    if (open.kind === 'algorithm') {
      const left = Math.min(...open.steps.map((step) => step.x));
      const space = Math.max(...open.steps.map((step) => step.size)) * 0.6;
      const text = open.steps
        .map((step) => `${' '.repeat(Math.round((step.x - left) / space))}${step.text}`)
        .join('\n');
      builder.algorithm({ caption: open.caption, text });
    }
    open = { kind: 'none' };
  };

  for (const line of rest) {
    const newBlock = line.gapBefore > 1.5 * line.size;
    const heading = headings.detect(line);
    if (heading) {
      close();
      builder.heading(heading.text, heading.level);
      continue;
    }
    const table = tableCaption.exec(line.text);
    if (table) {
      close();
      open = { kind: 'table', table: { caption: table[1], rows: [] } };
      continue;
    }
    if (line.cells.length >= 2) {
      if (open.kind !== 'table') {
        close();
        open = { kind: 'table', table: { rows: [] } };
      }
      open.table.rows.push(line.cells);
      continue;
    }
    const algorithm = algorithmCaption.exec(line.text);
    if (algorithm) {
      close();
      open = { kind: 'algorithm', caption: algorithm[1], steps: [] };
      continue;
    }
    if (open.kind === 'algorithm' && !newBlock) {
      open.steps.push(line);
      continue;
    }
    // Display equations are set off by space or set in a monospace font; a math-looking
    // line that runs on from a paragraph is that paragraph's continuation.
    const continuesParagraph = open.kind === 'paragraph' && !newBlock && !line.monospace;
    const mathematical =
      looksMathematical(line.text) || (line.monospace && /[=\\^_]/.test(line.text));
    if (mathematical && !continuesParagraph) {
      if (open.kind === 'equation' && !newBlock) open.parts.push(line.text);
      else {
        close();
        open = { kind: 'equation', parts: [line.text] };
      }
      continue;
    }
    if (open.kind !== 'paragraph' || newBlock) {
      close();
      open = { kind: 'paragraph', lines: [] };
    }
    const previous = open.lines.at(-1);
    if (previous !== undefined && /[A-Za-z]-$/.test(previous)) {
      open.lines[open.lines.length - 1] = `${previous}${line.text}`;
    } else open.lines.push(line.text);
  }
  close();
  return builder.build({ format: 'pdf', path });
}

/** Reads a PDF paper from its bytes. */
export async function readPdf(data: Uint8Array, path: string): Promise<PaperDocument> {
  return layoutPdfLines(await readPdfLines(data, path), path);
}
