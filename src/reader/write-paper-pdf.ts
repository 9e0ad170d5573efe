import { createRequire } from 'node:module';
import type { PaperAlgorithm, PaperDocument, PaperTable } from './document.js';

// pdfkit is a development dependency: this module builds the example PDFs and test PDFs,
// and no runtime code imports it. It is CommonJS typed with `export =`, hence require.
const require = createRequire(import.meta.url);
const PDFDocument = require('pdfkit') as typeof import('pdfkit');

type Pdf = PDFKit.PDFDocument;

export interface PaperPdfOptions {
  /** Reference entries, printed under "References" before the appendices (or at the end). */
  references?: string[];
}

const margin = 72;
const fonts = {
  title: ['Helvetica-Bold', 18],
  authors: ['Helvetica', 11],
  section: ['Helvetica-Bold', 14],
  subsection: ['Helvetica-Bold', 12],
  body: ['Times-Roman', 11],
  equation: ['Courier', 10],
  caption: ['Helvetica-Bold', 10],
  cell: ['Helvetica', 10],
  small: ['Times-Roman', 9],
} as const;

function use(pdf: Pdf, font: readonly [string, number]): Pdf {
  return pdf.font(font[0]).fontSize(font[1]);
}

function width(pdf: Pdf): number {
  return pdf.page.width - 2 * margin;
}

/** Starts a new page when fewer than `needed` points are left, so a heading is not orphaned. */
function keep(pdf: Pdf, needed: number): void {
  if (pdf.y + needed > pdf.page.height - margin) pdf.addPage();
}

/** Markdown inline markup to plain text: emphasis, code and math delimiters removed. */
function plain(text: string): string {
  return text
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\$([^$]+)\$/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function heading(pdf: Pdf, text: string, level: number): void {
  const font = level === 1 ? fonts.section : fonts.subsection;
  keep(pdf, font[1] * 5);
  pdf.moveDown(0.8);
  use(pdf, font).text(text, margin, pdf.y, { width: width(pdf) });
  pdf.moveDown(0.4);
}

function paragraph(pdf: Pdf, text: string, font: readonly [string, number] = fonts.body): void {
  use(pdf, font).text(plain(text), margin, pdf.y, { width: width(pdf) });
  pdf.moveDown(0.6);
}

function equation(pdf: Pdf, latex: string): void {
  keep(pdf, 30);
  // An equation stays on one line, as in a typeset paper: long ones get smaller type.
  const available = width(pdf) - 24;
  const natural = use(pdf, fonts.equation).widthOfString(latex);
  const size =
    natural > available
      ? Math.max(5, (0.95 * fonts.equation[1] * available) / natural)
      : fonts.equation[1];
  pdf.fontSize(size).text(latex, margin + 12, pdf.y, { width: available });
  pdf.moveDown(0.6);
}

function table(pdf: Pdf, found: PaperTable, number: number): void {
  keep(pdf, 14 * (found.rows.length + 2));
  const caption =
    found.caption !== undefined ? `Table ${number}: ${found.caption}.` : `Table ${number}.`;
  use(pdf, fonts.caption).text(caption, margin, pdf.y, { width: width(pdf) });
  pdf.moveDown(0.3);
  use(pdf, fonts.cell);
  const columns = Math.max(...found.rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_unused, column) =>
    Math.max(...found.rows.map((row) => pdf.widthOfString(row[column] ?? ''))),
  );
  found.rows.forEach((row, index) => {
    use(pdf, index === 0 ? fonts.caption : fonts.cell);
    const y = pdf.y;
    let x = margin + 12;
    row.forEach((cell, column) => {
      pdf.text(cell, x, y, { lineBreak: false });
      x += (widths[column] ?? 0) + 24;
    });
    pdf.y = y + 13;
  });
  pdf.x = margin;
  pdf.moveDown(0.6);
}

function algorithm(pdf: Pdf, found: PaperAlgorithm, number: number): void {
  const lines = found.text.split('\n');
  keep(pdf, 12 * Math.min(lines.length + 2, 20));
  const caption =
    found.caption !== undefined ? `Algorithm ${number}: ${found.caption}` : `Algorithm ${number}`;
  use(pdf, fonts.caption).text(caption, margin, pdf.y, { width: width(pdf) });
  use(pdf, fonts.equation);
  const indentWidth = pdf.widthOfString(' ');
  for (const line of lines) {
    const indent = (line.length - line.trimStart().length) * indentWidth;
    pdf.text(plain(line), margin + 12 + indent, pdf.y, { width: width(pdf) - 24 - indent });
  }
  pdf.x = margin;
  pdf.moveDown(0.6);
}

/** Section numbers as a reader of the PDF sees them: 1, 1.1, …; appendices keep their own. */
class Numbering {
  private readonly counts = [0, 0, 0];

  label(heading: string, level: number): string {
    if (/^appendix\b/i.test(heading)) return heading;
    const index = level - 1;
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    for (let deeper = index + 1; deeper < this.counts.length; deeper += 1) this.counts[deeper] = 0;
    return `${this.counts.slice(0, level).join('.')} ${heading}`;
  }
}

function references(pdf: Pdf, entries: string[]): void {
  if (entries.length === 0) return;
  heading(pdf, 'References', 1);
  for (const entry of entries) paragraph(pdf, entry, fonts.small);
}

function body(pdf: Pdf, document: PaperDocument, entries: string[]): void {
  const numbering = new Numbering();
  let tables = 0;
  let algorithms = 0;
  let referencesPrinted = false;
  for (const section of document.sections) {
    // References go where papers put them: after the main text, before any appendix.
    if (!referencesPrinted && /^appendix\b/i.test(section.heading)) {
      references(pdf, entries);
      referencesPrinted = true;
    }
    heading(pdf, numbering.label(section.heading, section.level), section.level);
    let tableIndex = 0;
    let algorithmIndex = 0;
    for (const block of section.text.split(/\n{2,}(?=\S)/)) {
      const trimmed = block.trim();
      if (trimmed.startsWith('$$')) {
        equation(pdf, trimmed.replace(/^\$\$\s*/, '').replace(/\s*\$\$$/, ''));
      } else if (trimmed.startsWith('Table: ')) {
        continue;
      } else if (trimmed.startsWith('|')) {
        const found = section.tables[tableIndex];
        tableIndex += 1;
        tables += 1;
        if (found) table(pdf, found, tables);
      } else if (trimmed.startsWith('```algorithm')) {
        const found = section.algorithms[algorithmIndex];
        algorithmIndex += 1;
        algorithms += 1;
        if (found) algorithm(pdf, found, algorithms);
      } else {
        paragraph(pdf, trimmed);
      }
    }
  }
  if (!referencesPrinted) references(pdf, entries);
}

/**
 * Lays a document out as a PDF the way papers look: a large title, authors, the abstract,
 * numbered headings in larger bold type, equations as their LaTeX source on their own
 * lines, tables as rows of cells, algorithms as indented steps, page numbers. The output
 * is byte-for-byte reproducible (fixed dates, no random file ID).
 */
export async function writePaperPdf(
  document: PaperDocument,
  options: PaperPdfOptions = {},
): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'LETTER',
    margin,
    bufferPages: true,
    info: {
      Title: document.title,
      Author: document.authors.join(', '),
      Creator: 'codify scripts/build-example-pdfs.ts',
      Producer: 'pdfkit',
      CreationDate: new Date(Date.UTC(2026, 0, 1)),
      ModDate: new Date(Date.UTC(2026, 0, 1)),
    },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  use(pdf, fonts.title).text(document.title, margin, margin, {
    width: width(pdf),
    align: 'center',
  });
  pdf.moveDown(0.5);
  if (document.authors.length > 0) {
    use(pdf, fonts.authors).text(document.authors.join(', '), {
      width: width(pdf),
      align: 'center',
    });
    pdf.moveDown(1);
  }
  if (document.abstract.length > 0) {
    heading(pdf, 'Abstract', 2);
    paragraph(pdf, document.abstract);
  }
  body(pdf, document, options.references ?? []);

  const pages = pdf.bufferedPageRange();
  for (let index = 0; index < pages.count; index += 1) {
    pdf.switchToPage(pages.start + index);
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    use(pdf, fonts.small).text(String(index + 1), margin, pdf.page.height - margin / 2, {
      width: width(pdf),
      align: 'center',
      lineBreak: false,
    });
    pdf.page.margins.bottom = bottom;
  }
  pdf.end();
  return done;
}
