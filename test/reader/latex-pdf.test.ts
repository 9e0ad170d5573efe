import { describe, expect, it } from 'vitest';
import type { PaperDocument } from '../../src/reader/document.js';
import { readPaper } from '../../src/reader/read-paper.js';
import { compareReadings } from '../../src/reader/reading-agreement.js';
import { renderDocument } from '../../src/reader/render-document.js';
import { headings } from './example-papers.js';
import { latexPdfFixtures } from './latex-pdf-fixtures.js';

const equations = (document: PaperDocument) =>
  document.sections.flatMap((section) => section.equations);
const tables = (document: PaperDocument) => document.sections.flatMap((section) => section.tables);

/** Each algorithm as the nesting depth of each of its lines (0, 1, 2 by indentation rank). */
const algorithmShape = (document: PaperDocument) =>
  document.sections
    .flatMap((section) => section.algorithms)
    .map((algorithm) => {
      const indents = algorithm.text.split('\n').map((line) => line.search(/\S/));
      const levels = [...new Set(indents)].sort((first, second) => first - second);
      return indents.map((indent) => levels.indexOf(indent));
    });

// The PDFs were built from the .tex files by scripts/build-latex-pdfs.ts (pdflatex); no TeX
// runs here. Word similarity is 2·LCS / (words of both readings), display equations aside.
describe.each(latexPdfFixtures)('pdflatex PDF of $name read like its LaTeX source', (fixture) => {
  it('matches at 95% of words or more, with every display equation and no invented table', async () => {
    const latex = await readPaper(fixture.tex);
    const pdf = await readPaper(fixture.pdf);
    const agreement = compareReadings(latex, pdf);
    expect(agreement.wordSimilarity).toBeGreaterThanOrEqual(0.95);
    expect(agreement.inventedTables).toEqual([]);
    expect(agreement.missingEquations).toEqual([]);
    expect(equations(pdf)).toHaveLength(equations(latex).length);
    expect(tables(pdf).map((table) => table.caption)).toEqual(
      tables(latex).map((table) => table.caption),
    );
    expect(tables(pdf).map((table) => table.rows)).toEqual(
      tables(latex).map((table) => table.rows),
    );
    // Algorithms: the same steps at the same nesting depths (indentation widths may differ).
    expect(algorithmShape(pdf)).toEqual(algorithmShape(latex));
    expect(pdf.title).toBe(latex.title);
    expect(pdf.authors).toEqual(latex.authors);
    expect(headings(pdf)).toEqual(headings(latex));
  });
});

describe('a two-column conference-style paper typeset by pdflatex', () => {
  const fixture = latexPdfFixtures.find((candidate) => candidate.name === 'warmup-attention');

  it('recovers scripts, fractions and roots, and keeps notices and footnotes out of headings', async () => {
    if (fixture === undefined) throw new Error('the warmup-attention fixture is missing');
    const document = await readPaper(fixture.pdf);
    const text = renderDocument(document);
    expect(equations(document)).toEqual([
      'Attention(Q, K, V ) = softmax (\\frac{Q K^{T}}{\\sqrt{d_{k}}}) V',
      'η_{t} = d_{model}^{−0.5} · min (t^{−0.5}, t · w^{−1.5})',
      'L = −\\frac{1}{B} \\sum_{i=1}^{B} log p_{θ}(y_{i} | x_{i})',
    ]);
    expect(text).toContain('β_{1} = 0.9, β_{2} = 0.98 and ε = 10^{−9}');
    expect(text).toContain('X ∈ R^{n×d_{model}}');
    expect(text).toContain('The division by \\sqrt{d_{k}} keeps');
    // Broken words joined; real compounds kept.
    expect(text).toContain('small sequence classification problems');
    expect(text).toContain('Practitioners therefore');
    expect(text).toContain('parity-like sequences');
    expect(text).not.toMatch(/\p{L}-\s?(fication|tween|tialization|ers)\b/u);
    // The permission notice above the title is not the paper's text, nor a heading.
    expect(text).not.toContain('Permission is granted');
    expect(headings(document)).toEqual([
      'introduction',
      'method',
      'scaled attention',
      'learning rate schedule',
      'experiments',
      'discussion',
      'conclusion',
    ]);
    // Footnotes stand where their mark is, as the LaTeX reader writes them.
    expect(text).toContain(
      'its gradients vanish (A saturated softmax puts almost all of its mass on one position, so the gradient with respect to the other scores is close to zero.), and training',
    );
    // The algorithm's steps, without the printed line numbers, indented under the loop.
    const [algorithm] = document.sections.flatMap((section) => section.algorithms);
    expect(algorithm?.caption).toBe('Training with warmup');
    expect(algorithm?.text).toMatch(/^( *)for t = 1 to T do\n\1 +sample a minibatch/m);
    expect(algorithm?.text).not.toMatch(/^\s*\d+:/m);
  });
});

describe('full-width blocks between column blocks, typeset by pdflatex', () => {
  const fixture = (name: string) => {
    const found = latexPdfFixtures.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`the ${name} fixture is missing`);
    return found.pdf;
  };

  it('reads a figure* set at the top of a page after the paragraph it interrupts', async () => {
    const document = await readPaper(fixture('wide-floats'));
    const results = document.sections.find((section) => section.heading === 'Results');
    // The paragraph runs on from page 1 to the left column under the figure, unbroken.
    expect(results?.text).toMatch(
      /ahead by a little more than one point, and with forty percent noise by close to three points\. The spread[^\n]*gives the numbers in full\.\n\nFigure 1: Test accuracy against the noise rate/,
    );
  });

  it('reads the columns above a table* at the bottom of a page whole, and puts the table after its mention', async () => {
    const document = await readPaper(fixture('wide-floats'));
    const last = document.sections.at(-1);
    expect(last?.heading).toBe('Conclusion');
    expect(last?.text).toMatch(/^Larger batches appear[^\n]*whenever labels are noisy\.$/);
    // LaTeX floated the table from the paragraph that mentions it to the next page's foot.
    const results = document.sections.find((section) => section.heading === 'Results');
    expect(results?.text).toMatch(
      /gives the numbers in full\.\n\nFigure 1: [^\n]*\n\nTable: Final test accuracy[^\n]*\n\n\| Noise rate/,
    );
    expect(results?.tables.map((table) => table.rows.length)).toEqual([4]);
  });

  it('puts back the blank cells of an ablation table, and ends a table at the paragraph below it', async () => {
    // examples/papers/seq-transformer: Table 2 leaves a cell blank where a variant keeps the
    // base model's value; the PDF holds no empty cells, so its rows were read shifted left.
    const paper = 'examples/papers/seq-transformer/paper';
    const [pdf, latex] = await Promise.all([readPaper(`${paper}.pdf`), readPaper(`${paper}.tex`)]);
    const ablations = (document: PaperDocument) =>
      tables(document).find((table) => table.caption?.startsWith('Ablations on reversal'));
    const blanks = (document: PaperDocument) =>
      ablations(document)?.rows.map((row) => row.map((cell) => cell === ''));
    expect(ablations(pdf)?.rows).toHaveLength(12);
    expect(blanks(pdf)).toEqual(blanks(latex));
    expect(ablations(pdf)?.rows[9]).toEqual([
      '(E)',
      '',
      '',
      '',
      '',
      '',
      '0',
      '',
      '234k',
      '94.6',
      '92.9',
      '96.8',
    ]);
    // The run-in heading of the paragraph under Table 3 ("Smoke configuration. To check…")
    // is set off like two cells, but stands far below the last row: no row of the table.
    const base = tables(pdf).find((table) => table.caption === 'Base configuration');
    expect(base?.rows.at(-1)).toEqual(['threads', '1']);
    const appendix = pdf.sections.find((section) =>
      section.heading.includes('Reimplementation Notes'),
    );
    expect(appendix?.text).toContain(
      'Smoke configuration. To check that an implementation runs end to end',
    );
  });

  it('puts a figure* read above the section that mentions it after the mentioning paragraph', async () => {
    const document = await readPaper(fixture('wide-abstract'));
    expect(document.abstract).toMatch(
      /^Noisy labels hurt small image classifiers[^\n]*on one page\.$/,
    );
    const results = document.sections.find((section) => section.heading === 'Results');
    expect(results?.text).toMatch(
      /^Figure 1 shows the test accuracy[^\n]*gives the numbers in full\.\n\nFigure 1: Test accuracy[^\n]*\n\nTable: Final test accuracy/,
    );
    const setup = document.sections.find((section) => section.heading === 'Setup');
    expect(setup?.text).not.toContain('Figure 1');
  });

  it('reads balanced columns, then the full-width block under them, then columns again', async () => {
    const document = await readPaper(fixture('multicol-full-width'));
    expect(headings(document)).toEqual([
      'introduction',
      'method',
      'summary of the comparison',
      'results',
      'conclusion',
    ]);
    const method = document.sections.find((section) => section.heading === 'Method');
    expect(method?.text).toMatch(
      /the standard deviation of the held-out loss at fixed step counts\.$/,
    );
    const summary = document.sections.find(
      (section) => section.heading === 'Summary of the comparison',
    );
    expect(summary?.equations).toHaveLength(1);
    expect(summary?.tables[0]?.rows).toEqual([
      ['Task', 'Baseline', 'Length', 'Scored'],
      ['Copying', '0.00', '0.40', '0.48'],
      ['Language model', '0.00', '0.25', '-0.10'],
    ]);
    // The last two lines of each column, alone on page 2, are still two columns.
    expect(document.sections.at(-1)?.text).toContain(
      'and it never hurt in our runs. Ordering by a model-based score is not worth',
    );
  });
});

describe('accents typeset by pdflatex in the OT1 encoding (accent glyphs over letters)', () => {
  const fixture = latexPdfFixtures.find((candidate) => candidate.name === 'accents');

  it('reads accented letters of text as Unicode letters and math accents as LaTeX', async () => {
    if (fixture === undefined) throw new Error('the accents fixture is missing');
    const document = await readPaper(fixture.pdf);
    const text = renderDocument(document);
    expect(document.title).toBe('Señales de Reloj: Kernel Smoothing of Irregular Time Series');
    expect(document.authors).toEqual(['Inês Conceição', 'Tomás Muñoz', 'Jürgen Großmann']);
    expect(headings(document)).toEqual(['introducción', 'método', 'resultados', 'conclusão']);
    // Written precomposed in the source, and as \~{n}, \c{c}, \"o, \.z, \'o.
    expect(text).toContain(
      'from the São Paulo air quality network to the hourly counts of a café in Zürich',
    );
    expect(text).toContain('Györfi, Kohler, Krzyżak and Walk');
    expect(text).toContain('the Fundação de Amparo à Pesquisa');
    expect(text).toContain('Señor Muñoz of the Universidad de Morón');
    expect(text).toContain('Naïve smoothing');
    expect(text).toContain('We thank José María, François and Zoë');
    expect(text).toContain(
      'We write \\tilde{x} for a series after smoothing and \\bar{x} for its mean',
    );
    expect(text).toMatch(/\$\$ \\hat\{y\}\(t\) = /);
    expect(text).not.toMatch(/\p{Cc}(?<![\n\t])/u);
    expect(text).not.toMatch(/[˜ˆ¨´`¸˝ˇ˚]/u);
  });
});

describe('the T1 encoding in bitmap (Type 3) fonts, typeset by pdflatex', () => {
  const fixture = latexPdfFixtures.find((candidate) => candidate.name === 'accents-t1');

  it('reads ligatures, dashes, quotes and accented letters from their bare codes', async () => {
    if (fixture === undefined) throw new Error('the accents-t1 fixture is missing');
    const document = await readPaper(fixture.pdf);
    const text = renderDocument(document);
    expect(document.title).toBe('Efficient Filtering of Sensor Drift in Łódź and Brno');
    expect(document.authors).toEqual(['Zofia Wójcik', 'Antonín Dvořák', 'Ferenc Erdős']);
    expect(text).toContain('their offset changes by a few micrograms');
    expect(text).toContain('an efficient filter');
    expect(text).toContain(
      'over the winter of 2024–2025. The filter is the same in both cities — only',
    );
    expect(text).toContain('The stations’ “official” readings');
    expect(text).toContain('the Český hydrometeorologický ústav, and Zoë Kovač');
    expect(text).toContain('\\tilde{x}_{t}');
    expect(text).not.toMatch(/\p{Cc}(?<![\n\t])/u);
  });
});
