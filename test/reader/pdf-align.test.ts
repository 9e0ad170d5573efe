import { describe, expect, it } from 'vitest';
import { readPaper } from '../../src/reader/index.js';
import { latexPdfFixtures } from './latex-pdf-fixtures.js';

describe('an align environment in a pdflatex PDF', () => {
  it('is one display equation with its rows separated by \\\\', async () => {
    const fixture = latexPdfFixtures.find((candidate) => candidate.name === 'aligned-math');
    if (fixture === undefined) throw new Error('the aligned-math fixture is missing');
    const document = await readPaper(fixture.pdf);
    const equations = document.sections.flatMap((section) => section.equations);
    expect(equations).toEqual([
      'q_{k} = (1 − ε) ⊮[k = y] + \\frac{ε}{K}, \\\\ L = − \\sum_{k=1}^{K} q_{k} log p_{k}, \\\\ \\frac{∂L}{∂z_{k}} = p_{k} − q_{k}.',
      'ε_{t} = ε_{0} (1 − t/T), \\\\ η_{t} = η_{0} cos(π t/2 T).',
    ]);
  });
});
