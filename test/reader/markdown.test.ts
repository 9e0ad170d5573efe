import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPaper } from '../../src/reader/read-paper.js';
import { renderDocument } from '../../src/reader/render-document.js';

const paper = `# A Tiny Method

Ada Lovelace, Alan Turing and Grace Hopper

## Abstract

We study a tiny method.

## 1 Introduction

Models use $x \\in \\mathbb{R}^d$ inline.

$$
y = W x + b
$$

## 2 Method

### 2.1 Loss

\\[ \\mathcal{L} = \\sum_i (y_i - \\hat{y}_i)^2 \\]

\\begin{align}
  a &= b \\label{eq:a} \\\\
  c &= d
\\end{align}

Table 1: Expected accuracy.

| Method | Accuracy |
|---|---:|
| Baseline | 90.1 |
| Ours | 92.3 |

\`\`\`algorithm
Algorithm 1: Training
for each epoch do
  take a step
end for
\`\`\`

Algorithm 2: Inference
predict argmax

## References

[1] Someone. A paper. 2020.

### Extra references

[2] Another.

## Appendix A: Details

More details.
`;

async function writePaper(name: string, text: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'codify-paper-'));
  const path = join(folder, name);
  await writeFile(path, text);
  return path;
}

describe('readPaper on Markdown', () => {
  it('extracts title, authors, abstract, sections, equations, tables and algorithms', async () => {
    const path = await writePaper('tiny.md', paper);
    const document = await readPaper(path);
    expect(document.title).toBe('A Tiny Method');
    expect(document.authors).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    expect(document.abstract).toBe('We study a tiny method.');
    expect(document.source).toEqual({ format: 'markdown', path });
    expect(document.sections.map((section) => [section.heading, section.level])).toEqual([
      ['Introduction', 1],
      ['Method', 1],
      ['Loss', 2],
      ['Appendix A: Details', 1],
    ]);
    const [introduction, , loss] = document.sections;
    expect(introduction?.equations).toEqual(['y = W x + b']);
    expect(introduction?.text).toContain('$x \\in \\mathbb{R}^d$');
    // The same form the LaTeX reader gives an align environment.
    expect(loss?.equations).toEqual([
      '\\mathcal{L} = \\sum_i (y_i - \\hat{y}_i)^2',
      '\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}',
    ]);
    expect(loss?.tables).toEqual([
      {
        caption: 'Expected accuracy',
        rows: [
          ['Method', 'Accuracy'],
          ['Baseline', '90.1'],
          ['Ours', '92.3'],
        ],
      },
    ]);
    expect(loss?.algorithms).toEqual([
      { caption: 'Training', text: 'for each epoch do\n  take a step\nend for' },
      { caption: 'Inference', text: 'predict argmax' },
    ]);
    const rendered = renderDocument(document);
    expect(rendered).not.toContain('Someone');
    expect(rendered).not.toContain('Another');
    expect(rendered).toContain('### Loss');
    expect(rendered).toContain('$$ y = W x + b $$');
    expect(rendered).toContain('| Baseline | 90.1 |');
  });

  it('takes the title and authors from front matter', async () => {
    const path = await writePaper(
      'front.markdown',
      '---\ntitle: Front Matter Paper\nauthors: [A. One, B. Two]\n---\n\n# Introduction\n\nText.\n',
    );
    const document = await readPaper(path);
    expect(document.title).toBe('Front Matter Paper');
    expect(document.authors).toEqual(['A. One', 'B. Two']);
    expect(document.sections.map((section) => section.heading)).toEqual(['Introduction']);
  });
});
