import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownPaperToPdf } from '../../src/reader/markdown-to-pdf.js';
import { PaperError } from '../../src/reader/paper-error.js';
import { readPaper } from '../../src/reader/read-paper.js';
import { renderDocument } from '../../src/reader/render-document.js';
import { equations, examplePaperPath, examplePapers, headings } from './example-papers.js';

const require = createRequire(import.meta.url);
const PDFDocument = require('pdfkit') as typeof import('pdfkit');

const squash = (text: string): string => text.replace(/\s+/g, '');

async function pdfBytes(draw: (pdf: PDFKit.PDFDocument) => void, userPassword?: string) {
  const pdf = new PDFDocument(userPassword === undefined ? {} : { userPassword });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) =>
    pdf.on('end', () => resolve(Buffer.concat(chunks))),
  );
  draw(pdf);
  pdf.end();
  return done;
}

async function failure(path: string): Promise<PaperError> {
  const error: unknown = await readPaper(path).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof PaperError)) throw new Error(`expected a PaperError for ${path}`);
  return error;
}

describe.each(examplePapers)('example paper %s: the PDF agrees with the Markdown', (name) => {
  it('on title, authors, abstract, headings, equations, tables and algorithm captions', async () => {
    const markdown = await readPaper(examplePaperPath(name, 'paper.md'));
    const pdf = await readPaper(examplePaperPath(name, 'paper.pdf'));
    expect(pdf.source.format).toBe('pdf');
    expect(pdf.title).toBe(markdown.title);
    expect(pdf.authors).toEqual(markdown.authors);
    expect(squash(pdf.abstract)).toBe(squash(markdown.abstract));
    expect(headings(pdf)).toEqual(headings(markdown));
    expect(pdf.sections.map((section) => section.level)).toEqual(
      markdown.sections.map((section) => section.level),
    );
    // Equation text comes back from positioned glyphs: compare it without whitespace.
    expect(equations(pdf).map(squash)).toEqual(equations(markdown).map(squash));
    const tables = (document: typeof pdf) => document.sections.flatMap((s) => s.tables);
    expect(tables(pdf)).toEqual(tables(markdown));
    const captions = (document: typeof pdf) =>
      document.sections.flatMap((s) => s.algorithms.map((algorithm) => algorithm.caption));
    expect(captions(pdf)).toEqual(captions(markdown));
    const steps = pdf.sections.flatMap((s) => s.algorithms).map((a) => a.text);
    // Indentation comes back from x positions: the body of a loop is indented under it.
    expect(steps[0]).toMatch(/^( *)for .* do\n\1 {2}\S/m);
  });

  it('drops the references and the page numbers', async () => {
    const pdf = await readPaper(examplePaperPath(name, 'paper.pdf'));
    const text = renderDocument(pdf);
    expect(headings(pdf)).not.toContain('references');
    expect(text).not.toMatch(/NeurIPS, 2007|ICLR, 2018/);
    expect(text).not.toMatch(/^\d+$/m);
  });

  it('is what scripts/build-example-pdfs.ts builds from paper.md, byte for byte', async () => {
    const source = examplePaperPath(name, 'paper.md');
    const built = await markdownPaperToPdf(await readFile(source, 'utf8'), source);
    const committed = await readFile(examplePaperPath(name, 'paper.pdf'));
    expect(built.equals(committed)).toBe(true);
  });
});

describe('readPaper on problem PDFs', () => {
  it('asks to decrypt an encrypted PDF', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'codify-pdf-')), 'locked.pdf');
    await writeFile(path, await pdfBytes((pdf) => pdf.text('Secret paper'), 'open-sesame'));
    const error = await failure(path);
    expect(error.code).toBe('encrypted');
    expect(error.message).toContain(path);
    expect(error.message).toContain('is encrypted: decrypt it first, e.g. with qpdf --decrypt');
  });

  it('asks for OCR when a PDF has no text layer', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'codify-pdf-')), 'scan.pdf');
    await writeFile(path, await pdfBytes((pdf) => pdf.rect(100, 100, 300, 400).fill('#333')));
    const error = await failure(path);
    expect(error.code).toBe('no-text');
    expect(error.message).toContain('no text layer');
    expect(error.message).toContain('ocrmypdf');
  });

  it('says a truncated PDF is unreadable', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'codify-pdf-')), 'cut.pdf');
    const whole = await pdfBytes((pdf) => pdf.text('Some text'));
    await writeFile(path, whole.subarray(0, 40));
    const error = await failure(path);
    expect(['unreadable', 'no-text']).toContain(error.code);
    expect(error.message).toContain(path);
  });
});

const filler = (topic: string): string =>
  Array.from(
    { length: 6 },
    (_unused, index) => `${topic} sentence number ${index} explains the idea.`,
  ).join(' ');

describe('readPaper on a two-column PDF', () => {
  it('reads the left column before the right one and drops page furniture', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'codify-pdf-')), 'columns.pdf');
    const bytes = await pdfBytes((pdf) => {
      pdf
        .font('Helvetica-Bold')
        .fontSize(18)
        .text('Two Column Paper', 72, 72, { width: 468, align: 'center' });
      pdf
        .font('Helvetica')
        .fontSize(11)
        .text('Ann Author', 72, 100, { width: 468, align: 'center' });
      const column = (x: number, blocks: [string, string][]): void => {
        let y = 140;
        for (const [heading, text] of blocks) {
          pdf.font('Helvetica-Bold').fontSize(12).text(heading, x, y, { width: 220 });
          pdf
            .font('Times-Roman')
            .fontSize(10)
            .text(text, x, pdf.y + 4, { width: 220 });
          y = pdf.y + 12;
        }
      };
      column(72, [
        ['1 Introduction', filler('Left')],
        ['2 Background', filler('Lower')],
      ]);
      column(320, [
        ['3 Method', filler('Right')],
        ['4 Results', filler('Final')],
      ]);
      // Page furniture the reader must drop: a side stamp and a running header.
      pdf.save().rotate(-90, { origin: [30, 500] });
      pdf.font('Times-Roman').fontSize(20).text('arXiv:2611.00001v1 [cs.LG] 22 Nov 2026', 30, 500, {
        lineBreak: false,
      });
      pdf.restore();
      const header = (): void => {
        pdf.font('Times-Italic').fontSize(9).text('Preprint. Under review.', 72, 30, {
          width: 468,
          align: 'center',
          lineBreak: false,
        });
      };
      header();
      pdf.addPage();
      header();
      pdf.font('Helvetica-Bold').fontSize(12).text('5 Conclusion', 72, 100);
      pdf
        .font('Times-Roman')
        .fontSize(10)
        .text(filler('Closing'), 72, pdf.y + 4, { width: 468 });
    });
    await writeFile(path, bytes);
    const document = await readPaper(path);
    expect(document.title).toBe('Two Column Paper');
    expect(headings(document)).toEqual([
      'introduction',
      'background',
      'method',
      'results',
      'conclusion',
    ]);
    expect(JSON.stringify(document)).not.toMatch(/arXiv|Preprint/);
    const [introduction, , method] = document.sections;
    expect(introduction?.text).toContain('Left sentence number 5 explains the idea.');
    expect(introduction?.text).not.toContain('Right');
    expect(method?.text).toContain('Right sentence number 0 explains the idea.');
    expect(method?.tables).toEqual([]);
  });
});
