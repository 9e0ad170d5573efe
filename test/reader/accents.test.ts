import { describe, expect, it } from 'vitest';
import { replaceTextAccents } from '../../src/reader/latex-accents.js';
import { cleanLatexInline } from '../../src/reader/latex-inline.js';
import type { PdfItem } from '../../src/reader/pdf-columns.js';
import { composeInlineAccents, placeAccents } from '../../src/reader/pdf-accents.js';

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

  it('puts an accent that stands right before its letter in one run on that letter', () => {
    expect(composeInlineAccents('Se˜nor, na¨ıve, ¸cais')).toBe('Señor, naïve, çais');
  });
});
