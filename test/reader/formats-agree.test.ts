import { describe, expect, it } from 'vitest';
import { readPaper } from '../../src/reader/read-paper.js';
import { renderDocument } from '../../src/reader/render-document.js';
import { equations, examplePaperPath, examplePapers, headings } from './example-papers.js';

describe.each(examplePapers)('example paper %s: Markdown and LaTeX agree', (name) => {
  it('on title, authors, abstract, headings, equations, tables and algorithm captions', async () => {
    const markdown = await readPaper(examplePaperPath(name, 'paper.md'));
    const latex = await readPaper(examplePaperPath(name, 'paper.tex'));
    expect(markdown.source.format).toBe('markdown');
    expect(latex.source.format).toBe('latex');
    expect(latex.title).toBe(markdown.title);
    expect(latex.title.length).toBeGreaterThan(20);
    expect(latex.authors).toEqual(markdown.authors);
    expect(latex.abstract.replace(/\s+/g, ' ')).toBe(markdown.abstract.replace(/\s+/g, ' '));
    expect(headings(latex)).toEqual(headings(markdown));
    expect(headings(markdown)).toContain('method');
    expect(headings(markdown).at(-1)).toMatch(/^appendix a: /);
    expect(equations(markdown).length).toBeGreaterThanOrEqual(5);
    expect(equations(latex)).toEqual(equations(markdown));
    const tables = (document: typeof markdown) => document.sections.flatMap((s) => s.tables);
    expect(tables(latex)).toEqual(tables(markdown));
    expect(tables(markdown)[0]?.rows.length).toBeGreaterThanOrEqual(4);
    const captions = (document: typeof markdown) =>
      document.sections.flatMap((s) => s.algorithms.map((algorithm) => algorithm.caption));
    expect(captions(latex)).toEqual(captions(markdown));
    expect(captions(markdown)).toHaveLength(1);
  });

  it('drops the references in both', async () => {
    for (const file of ['paper.md', 'paper.tex']) {
      const document = await readPaper(examplePaperPath(name, file));
      const text = renderDocument(document);
      expect(headings(document)).not.toContain('references');
      expect(text).not.toMatch(/NeurIPS, 2007|ICLR, 2018/);
    }
  });

  it('reads the LaTeX folder through its main file', async () => {
    const folder = await readPaper(examplePaperPath(name));
    const file = await readPaper(examplePaperPath(name, 'paper.tex'));
    expect(folder.source.format).toBe('latex');
    expect(headings(folder)).toEqual(headings(file));
  });
});
