import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceTextAccents } from '../../src/reader/latex-accents.js';
import { cleanLatexInline } from '../../src/reader/latex-inline.js';
import type { PdfItem } from '../../src/reader/pdf-columns.js';
import { composeInlineAccents, placeAccents } from '../../src/reader/pdf-accents.js';
import { texBitmapDecoder } from '../../src/reader/pdf-tex-encodings.js';
import { readPaper } from '../../src/reader/read-paper.js';
import { renderDocument } from '../../src/reader/render-document.js';

/** A glyph run as pdf.js reports it; text in CMR10 unless told. */
function item(text: string, x: number, y: number, font = 'CMR10', width = 5): PdfItem {
  const math = font.startsWith('CMMI');
  return { text, x, y, width, size: 10, monospace: false, font, bold: false, math };
}

describe('LaTeX accent commands in text', () => {
  it('become Unicode letters, braced or not, precomposed where Unicode has them', () => {
    expect(replaceTextAccents('Se\\~{n}or Mu\\~noz, S\\~ao Paulo')).toBe('Señor Muñoz, São Paulo');
    expect(replaceTextAccents('gar\\c{c}on, fran\\c cais, caf\\\'e, na\\"{\\i}ve')).toBe(
      'garçon, français, café, naïve',
    );
    expect(replaceTextAccents('Erd\\H{o}s, \\v{C}ech, \\r{A}ngstr\\"om, \\^{e}tre, \\`a la')).toBe(
      'Erdős, Čech, Ångström, être, à la',
    );
    expect(replaceTextAccents("Gro\\ss mann, Bj\\o rn, \\AE sop, \\l{}\\'od\\.z")).toBe(
      'Großmann, Bjørn, Æsop, łódż',
    );
    // No precomposed letter: the letter keeps a combining mark.
    expect(replaceTextAccents('\\~{g}')).toBe('g\u0303');
  });

  it('leaves other commands and math alone', () => {
    expect(replaceTextAccents('\\url{x} \\cite{a} \\label{b} \\vspace{1em} \\date{}')).toBe(
      '\\url{x} \\cite{a} \\label{b} \\vspace{1em} \\date{}',
    );
    // In a tabbing environment \= and \> set tab stops.
    expect(replaceTextAccents('x \\= y \\> z')).toBe('x \\= y \\> z');
    expect(cleanLatexInline('Se\\~{n}or~Mu\\~noz and $\\tilde{x} + \\hat{y}$')).toBe(
      'Señor Muñoz and $\\tilde{x} + \\hat{y}$',
    );
  });
});

describe('accent glyphs in a PDF', () => {
  it('put on a letter of text make the accented letter; on a letter of math, the command', () => {
    // TeX's \~{n}: the tilde ends one run, its letter starts the next, under it.
    const tilde = item('˜', 110, 200);
    const rest = item('nor', 109.5, 200, 'CMR10', 14);
    const accent = item('ˆ', 150, 200);
    const x = item('x', 149.7, 200, 'CMMI10');
    const [text, math] = [placeAccents([tilde, rest]), placeAccents([accent, x])];
    expect(text.map((found) => found.text)).toEqual(['ñor']);
    expect(text[0]?.math).toBe(false);
    expect(math.map((found) => found.text)).toEqual(['\\hat{x}']);
    expect(math[0]?.math).toBe(true);
  });

  it('finds the letter of a raised capital accent and of a cedilla under its letter', () => {
    const caron = item('ˇ', 101, 202.5);
    const cech = item('Cech,', 100, 200, 'CMR10', 24);
    const cedilla = item('¸', 131, 200, 'CMR10', 4.4);
    const con = item('con', 130, 200, 'CMR10', 14);
    expect(placeAccents([caron, cech, cedilla, con]).map((found) => found.text)).toEqual([
      'Čech,',
      'çon',
    ]);
  });

  it('leaves a backquote of code alone', () => {
    const quote = { ...item('`', 100, 200), monospace: true };
    const code = { ...item('x`', 99.5, 200, 'CMTT10', 10), monospace: true };
    expect(placeAccents([quote, code]).map((found) => found.text)).toEqual(['`', 'x`']);
  });

  it('puts an accent that stands right before its letter in one run on that letter', () => {
    expect(composeInlineAccents('Se˜nor, na¨ıve, ¸cais')).toBe('Señor, naïve, çais');
  });
});

describe('TeX bitmap fonts read as bare character codes', () => {
  it('decodes Cork (T1) codes: ligatures, dashes, quotes, accents and Latin letters', () => {
    const decode = texBitmapDecoder(['\u001cnd \u0015 \u0010quoted\u0011', 'Erd\u00aes \u0083ech']);
    expect(decode?.('\u001cnd the o\u001ece \u0015 \u0016 \u0010quoted\u0011')).toBe(
      'find the office – — “quoted”',
    );
    expect(decode?.('Erd\u00aes, \u0083ech, \u00aa\u00f3d\u00b9, Stra\u00ffe')).toBe(
      'Erdős, Čech, łódź, Straße',
    );
    expect(decode?.('\u0003')).toBe('˜');
  });

  it('decodes OT1 codes where its ligatures are the ones used', () => {
    const decode = texBitmapDecoder(['\u000cnd', 'o\u000ece', '\u0001 = 2']);
    expect(decode?.('\u000cnd the o\u000ece \\quoted" \u0001')).toBe('find the office “quoted” Δ');
  });

  it('leaves fonts alone whose text has no control codes', () => {
    expect(texBitmapDecoder(['find the office', 'Zoë'])).toBeUndefined();
  });
});

/**
 * A one-page PDF whose font's ToUnicode map reads the glyph of "~" as U+0000, as some
 * producers map a mark they cannot name: its text layer holds NUL bytes.
 */
function pdfWithNulInTextLayer(): Buffer {
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Nul def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '1 beginbfchar <7E> <0000> endbfchar',
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const content = 'BT /F1 12 Tf 72 700 Td (Mun~oz and Se~nor) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>',
    `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('control characters in a PDF text layer', () => {
  it('never reach the text: a NUL where a mark was is dropped', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'codify-pdf-')), 'nul.pdf');
    await writeFile(path, pdfWithNulInTextLayer());
    const text = renderDocument(await readPaper(path));
    expect(text).not.toMatch(/\p{Cc}(?<![\n\t])/u);
    expect(text).toContain('Munoz and Senor');
  });
});
