import { describe, expect, it } from 'vitest';
import { Dehyphenator } from '../../src/reader/dehyphenate.js';
import type { PdfItem } from '../../src/reader/pdf-columns.js';
import { readingOrder } from '../../src/reader/pdf-columns.js';
import { composeMath } from '../../src/reader/pdf-math.js';
import { renderItems } from '../../src/reader/pdf-scripts.js';

/** A glyph run as pdf.js reports it, for TeX's fonts: CMMI10 math italic unless told. */
function item(
  text: string,
  x: number,
  y: number,
  size = 10,
  font = 'CMMI10',
  width = 0.5 * size * [...text].length,
): PdfItem {
  return { text, x, y, width, size, monospace: false, font, bold: false, math: true };
}

describe('sub- and superscripts from baseline offset and size', () => {
  it('writes the Adam line as β_{1} = 0.9 and 10^{−9}, not β1 or a row of a table', () => {
    const beta = item('β', 100, 200);
    const one = item('1', 105, 198.5, 7, 'CMR7');
    const equals = item('= 0.9, ε = 10', 111, 200, 10, 'CMR10');
    const minus = item('−9', 111 + equals.width, 203.6, 7, 'CMSY7');
    expect(renderItems([beta, one, equals, minus])).toEqual(['β_{1} = 0.9, ε = 10^{−9}']);
  });

  it('stacks a subscript and a superscript on one base: d_{model}^{−0.5}', () => {
    const d = item('d', 50, 100);
    const model = item('model', 55, 97, 7, 'CMR7');
    const exponent = item('−0.5', 55, 104.3, 7, 'CMSY7');
    const dot = item('·', 75, 100, 10, 'CMSY10');
    expect(renderItems([d, model, exponent, dot])).toEqual(['d_{model}^{−0.5} ·']);
  });

  it('nests scripts of scripts and climbs back out: R^{n×d_{model}}', () => {
    const r = item('R', 10, 100, 10, 'MSBM10');
    const n = item('n', 15, 103.6, 7);
    const times = item('×', 18.5, 103.6, 7, 'CMSY7');
    const d = item('d', 22, 103.6, 7);
    const model = item('model', 25.5, 102.5, 5, 'CMR5');
    const next = item('. Queries', 38, 100, 10, 'NimbusRomNo9L-Regu');
    expect(renderItems([r, n, times, d, model, next])).toEqual(['R^{n×d_{model}}. Queries']);
  });
});

describe('fractions and roots from drawn rules', () => {
  it('rebuilds softmax(QK^T / sqrt(d_k)) from the bar, the overline and the glyphs around them', () => {
    const items = [
      item('QK', 227.1, 97.3, 10, 'CMMI10', 16.3),
      item('T', 244.2, 100.9, 7, 'CMMI7', 4.7),
      item('√', 229.6, 90.8, 10, 'CMSY10', 8.3),
      item('d', 237.9, 83.1, 10, 'CMMI10', 5.2),
      item('k', 243.1, 81.6, 7, 'CMMI7', 4.2),
    ];
    const rules = [
      { x0: 227.1, x1: 250.4, y: 93.0, thickness: 0.4 },
      { x0: 237.9, x1: 248.0, y: 91.0, thickness: 0.4 },
    ];
    const { items: composed, rules: left } = composeMath(items, rules);
    expect(composed.map((found) => found.text)).toEqual(['\\frac{QK^{T}}{\\sqrt{d_{k}}}']);
    expect(left).toEqual([]);
  });

  it('leaves table rules alone: two rules of the same extent are a table, not fractions', () => {
    const items = [item('Method', 100, 110, 10, 'CMR10'), item('Logistic', 100, 96, 10, 'CMR10')];
    const rules = [
      { x0: 95, x1: 180, y: 105, thickness: 0.4 },
      { x0: 95, x1: 180, y: 80, thickness: 0.8 },
    ];
    expect(composeMath(items, rules).items.map((found) => found.text)).toEqual([
      'Method',
      'Logistic',
    ]);
  });

  it('sums with limits above and below: \\sum_{i=1}^{B}', () => {
    const sum = { ...item('∑', 417.8, 380.9, 10, 'CMEX10', 14.4), extension: true };
    const items = [
      item('=', 387.4, 371.5, 10, 'CMR10'),
      sum,
      item('B', 421.8, 383.9, 7, 'CMMI7', 6),
      item('i=1', 418.6, 359.7, 7, 'CMMI7', 12.9),
      item('log', 433.9, 371.5, 10, 'CMR10'),
    ];
    const texts = composeMath(items, []).items.map((found) => [found.text, found.y]);
    expect(texts).toContainEqual(['\\sum_{i=1}^{B}', 371.5]);
  });
});

describe('glyphs TeX draws apart from their letters', () => {
  it('puts an accent drawn above a letter on it: \\tilde{y}', () => {
    const items = [
      item('so', 160, 537, 10.9, 'CMR10'),
      item('˜', 174.5, 537, 10.9, 'CMR10', 5.5),
      item('y', 174, 537, 10.9, 'CMMI10', 5.3),
    ];
    expect(composeMath(items, []).items.map((found) => found.text)).toEqual(['so', '\\tilde{y}']);
  });

  it('puts back an underscore drawn as a rule, where pdf.js read a space', () => {
    const code = item('sklearn.datasets.load breast cancer', 300, 186, 10.9, 'CMTT10', 35 * 5.73);
    const rule = { x0: 300 + 21 * 5.73 + 0.6, x1: 300 + 22 * 5.73 - 0.6, y: 186.2, thickness: 0.4 };
    expect(composeMath([code], [rule]).items[0]?.text).toBe('sklearn.datasets.load_breast cancer');
  });
});

describe('two-column pages', () => {
  it('reads the left column first even where the columns’ baselines do not line up', () => {
    const line = (text: string, x: number, y: number): PdfItem =>
      item(text.padEnd(48, 'x'), x, y, 10, 'NimbusRomNo9L-Regu');
    const items: PdfItem[] = [
      item('Ada Example', 220, 620, 12, 'T'),
      item('Ben Sample', 335, 620, 12, 'T'),
    ];
    for (let row = 0; row < 6; row += 1) {
      items.push(line(`left ${row}`, 54, 580 - 12 * row));
      items.push(line(`right ${row}`, 311, 583.5 - 12 * row));
    }
    const runs = readingOrder(items, 612).map((run) => run.map((found) => found.text.slice(0, 7)));
    expect(runs[0]).toEqual(['Ada Exa', 'Ben Sam']);
    expect(runs[1]?.every((text) => text.startsWith('left'))).toBe(true);
    expect(runs[2]?.every((text) => text.startsWith('right'))).toBe(true);
  });
});

describe('dehyphenation in the order the study found right', () => {
  const words = new Dehyphenator([
    'the English-to-German task uses position-wise layers and a permutation of the',
    'input sequence; each training step and then',
  ]);

  it('joins a word found elsewhere, and a fragment that is no word', () => {
    expect(words.join('a random permu-', 'tation of')).toBe('a random permutation of');
    expect(words.join('the classi-', 'fication')).toBe('the classification');
    expect(words.join('each train-', 'ing run')).toBe('each training run');
  });

  it('keeps the hyphen of a compound seen elsewhere, or after a word of its own', () => {
    expect(words.join('the English-', 'to-German')).toBe('the English-to-German');
    expect(words.join('two position-', 'wise layers')).toBe('two position-wise layers');
    expect(words.join('a sequence-', 'aligned model')).toBe('a sequence-aligned model');
  });
});
