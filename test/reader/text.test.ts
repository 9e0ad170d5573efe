import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPaper } from '../../src/reader/read-paper.js';

const paper = `Sparse Ridge Probes for Tiny Networks
Ann Example and Bo Example

ABSTRACT
We probe tiny networks with sparse ridge regression.

1 Introduction
Probes read what a layer knows.
They are linear.

2 Method

2.1 Objective
We minimize the penalized squared error

    \\min_w \\lVert y - X w \\rVert_2^2 + \\lambda \\lVert w \\rVert_1

over the probe weights.

Algorithm 1: Probe fitting
for each layer do
  fit w by coordinate descent
end for

Table 1: Expected accuracy
Layer    Accuracy
1        0.71
2        0.83

REFERENCES
[1] Someone. A probe paper. 2021.

APPENDIX
Extra material.
`;

describe('readPaper on plain text', () => {
  it('finds title, authors, abstract, numbered and capitalized headings, equations', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'codify-text-')), 'paper.txt');
    await writeFile(path, paper);
    const document = await readPaper(path);
    expect(document.source.format).toBe('text');
    expect(document.title).toBe('Sparse Ridge Probes for Tiny Networks');
    expect(document.authors).toEqual(['Ann Example', 'Bo Example']);
    expect(document.abstract).toBe('We probe tiny networks with sparse ridge regression.');
    expect(document.sections.map((section) => [section.heading, section.level])).toEqual([
      ['Introduction', 1],
      ['Method', 1],
      ['Objective', 2],
      ['Appendix', 1],
    ]);
    const objective = document.sections[2];
    expect(objective?.equations).toEqual([
      '\\min_w \\lVert y - X w \\rVert_2^2 + \\lambda \\lVert w \\rVert_1',
    ]);
    expect(objective?.algorithms).toEqual([
      {
        caption: 'Probe fitting',
        text: 'for each layer do\n  fit w by coordinate descent\nend for',
      },
    ]);
    expect(objective?.tables).toEqual([
      {
        caption: 'Expected accuracy',
        rows: [
          ['Layer', 'Accuracy'],
          ['1', '0.71'],
          ['2', '0.83'],
        ],
      },
    ]);
    expect(document.sections[0]?.text).toBe('Probes read what a layer knows.\nThey are linear.');
    expect(JSON.stringify(document)).not.toContain('probe paper');
  });
});
