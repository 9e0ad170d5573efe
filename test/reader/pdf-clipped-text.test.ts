import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clippedRuns } from '../../src/reader/pdf-clipped-text.js';
import { readPaper, renderDocument } from '../../src/reader/index.js';

const codes = {
  save: 10,
  restore: 11,
  transform: 12,
  beginText: 31,
  moveText: 40,
  setFont: 37,
  showText: 44,
};
const glyph = (unicode: string) => ({ unicode, width: 500 });

describe('glyphs past the page edge', () => {
  it('are placed as the PDF places them and returned when they fall right of the page', () => {
    const operators = {
      fnArray: [12, 31, 37, 40, 44],
      argsArray: [
        [1, 0, 0, 1, 72, 700],
        null,
        ['f1', 10],
        [500, 20],
        // From x = 572, glyphs 5 pt wide: "abcd" ends at 592, "ef" starts at 592 and 597.
        [[glyph('a'), glyph('b'), glyph('c'), glyph('d'), -1000, glyph('e'), glyph('f')]],
      ],
    };
    // The -1000 gap moves 10 pt: "e" starts at 602, past a page 600 wide; "f" at 607.
    expect(clippedRuns(operators, codes, 600)).toEqual([
      { fontId: 'f1', x: 602, right: 612, y: 720, text: 'ef' },
    ]);
    expect(clippedRuns(operators, codes, 700)).toEqual([]);
  });

  it('an overfull line of the pdflatex mixup paper keeps its last word whole', async () => {
    const path = join(import.meta.dirname, '..', 'fixtures', 'pdflatex', 'mixup-tabular.pdf');
    const text = renderDocument(await readPaper(path));
    // pdf.js alone gives "load_breast_canc": "er:" lies past the right edge of the A4 page.
    expect(text).toContain('sklearn.datasets.load_breast_cancer: 569 rows');
  });
});
