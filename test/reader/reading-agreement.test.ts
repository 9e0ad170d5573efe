import { describe, expect, it } from 'vitest';
import type { PaperDocument } from '../../src/reader/document.js';
import { emptySection } from '../../src/reader/document.js';
import { compareReadings, wordTokens } from '../../src/reader/reading-agreement.js';

function document(
  text: string,
  equations: string[],
  tables: PaperDocument['sections'][0]['tables'] = [],
): PaperDocument {
  const section = { ...emptySection('Method', 1), text, equations, tables };
  return {
    title: 'T',
    authors: [],
    abstract: '',
    sections: [section],
    source: { format: 'pdf', path: 'x' },
  };
}

describe('comparing a reading with the LaTeX reading', () => {
  it('tokenizes LaTeX math and the PDF’s Unicode math alike, citations aside', () => {
    expect(
      wordTokens('pair $z_{\\pi(i)}$ with $\\lambda \\in \\mathbb{R}^{30}$ [zhang2018mixup]'),
    ).toEqual(wordTokens('pair z_{π(i)} with λ ∈ R^{30} [1]'));
  });

  it('scores word order and content, finds missing equations and invented tables', () => {
    const latex = document('one two three four five six seven eight nine ten', [
      '\\frac{1}{B} x_i',
    ]);
    const same = compareReadings(
      latex,
      document('one two three four five six seven eight nine ten', ['\\frac{1}{B} x_{i}']),
    );
    expect(same.wordSimilarity).toBe(1);
    expect(same.missingEquations).toEqual([]);
    const worse = compareReadings(
      latex,
      document(
        'one two three four five six seven eight nine ten-ish',
        [],
        [{ rows: [['1', '2']] }],
      ),
    );
    // Title, heading and ten words shared (12); the reading adds "ish" (13 words; the
    // table's cells are counted only as they appear in the section's text): 2·12 / 25.
    expect(worse.wordSimilarity).toBeCloseTo(24 / 25, 10);
    expect(worse.missingEquations).toEqual(['\\frac{1}{B} x_i']);
    expect(worse.inventedTables).toEqual(['1 | 2']);
  });
});
