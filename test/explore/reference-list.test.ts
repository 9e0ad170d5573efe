import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  readReferenceList,
  referencesSection,
  referenceTitle,
  referenceWorks,
  splitReferences,
} from '../../src/explore/reference-list.js';

const fixture = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const mixupTitles = [
  'mixup: Beyond Empirical Risk Minimization',
  'Nuclear feature extraction for breast tumor diagnosis',
];

describe("an input paper's reference list", () => {
  it('is read from a Markdown paper and from the same paper typeset as PDF', async () => {
    for (const path of [
      'examples/papers/mixup-tabular/paper.md',
      'examples/papers/mixup-tabular/paper.pdf',
    ]) {
      const entries = await readReferenceList(fixture(path));
      expect(
        entries.map((entry) => entry.title),
        path,
      ).toEqual(mixupTitles);
      // The PDF's entry broken over two lines is one entry; its page number is not one.
      expect(entries[1]?.text).toBe(
        'W. N. Street, W. H. Wolberg and O. L. Mangasarian. Nuclear feature extraction for breast tumor diagnosis. Biomedical Image Processing and Biomedical Visualization, 1993.',
      );
    }
  });

  it('is read from LaTeX \\bibitem entries and from a pdflatex PDF', async () => {
    for (const path of [
      'test/fixtures/papers/warmup-attention/paper.tex',
      'test/fixtures/pdflatex/warmup-attention.pdf',
    ]) {
      const entries = await readReferenceList(fixture(path));
      expect(
        entries.map((entry) => entry.title),
        path,
      ).toEqual(['Adam: A Method for Stochastic Optimization']);
    }
  });

  it('is empty for a paper without one, and ends at the next section', async () => {
    expect(await readReferenceList(fixture('examples/explore/paper.md'))).toEqual([]);
    const section = referencesSection(
      '# Paper\n\nText.\n\nReferences\n\n1. A. Author. First title. Venue, 2001.\n2. B. Author. Second title. Venue, 2002.\n\nAppendix A: More\n\n1. Not a reference.\n',
    );
    expect(splitReferences(section ?? '').map(referenceTitle)).toEqual([
      'First title',
      'Second title',
    ]);
  });

  it('reads the title of author-initial, quoted (IEEE) and unnumbered entries', () => {
    expect(
      referenceTitle(
        'A. K. Menon, S. Jayasumana, A. S. Rawat, H. Jain, A. Veit, and S. Kumar, “Long-tail learning via logit adjustment,” in ICLR, 2021.',
      ),
    ).toBe('Long-tail learning via logit adjustment');
    expect(
      referenceTitle(
        'D. P. Kingma and J. Ba. Adam: A Method for Stochastic Optimization. ICLR, 2015.',
      ),
    ).toBe('Adam: A Method for Stochastic Optimization');
    expect(
      splitReferences(
        '\nCui, Y., Jia, M. Class-balanced loss based on effective number of samples. CVPR, 2019.\n\nCao, K., Wei, C. Learning imbalanced datasets with label-distribution-aware margin loss. NeurIPS, 2019.\n',
      ).map(referenceTitle),
    ).toEqual([
      'Class-balanced loss based on effective number of samples',
      'Learning imbalanced datasets with label-distribution-aware margin loss',
    ]);
  });

  it('gives each entry as a candidate work named by its paper and number', async () => {
    const works = await referenceWorks([
      { id: 'P1', path: fixture('examples/papers/mixup-tabular/paper.md') },
    ]);
    expect(works).toEqual([
      { title: mixupTitles[0], text: '', source: 'P1 reference [1]' },
      { title: mixupTitles[1], text: '', source: 'P1 reference [2]' },
    ]);
  });
});
