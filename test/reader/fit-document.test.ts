import { describe, expect, it } from 'vitest';
import type { PaperDocument } from '../../src/reader/document.js';
import { fitDocument } from '../../src/reader/fit-document.js';
import { renderDocument } from '../../src/reader/render-document.js';

function section(heading: string, words: number, equations: string[] = []) {
  const text = Array.from({ length: words }, (_unused, index) => `${heading}${index}`).join(' ');
  return { heading, level: 1, text, equations, tables: [], algorithms: [] };
}

const document: PaperDocument = {
  title: 'Long Paper',
  authors: ['A. Author'],
  abstract: 'Short abstract.',
  sections: [
    section('Introduction', 50),
    section('Method', 400, ['y = W x']),
    section('Experiments', 200),
    section('Conclusion', 10),
  ],
  source: { format: 'markdown', path: 'long.md' },
};

describe('fitDocument', () => {
  it('returns the full text untouched when it fits, without summarizing', async () => {
    const calls: string[] = [];
    const fitted = await fitDocument(document, {
      maxChars: 100_000,
      summarize: (_text, heading) => {
        calls.push(heading);
        return Promise.resolve('never');
      },
    });
    expect(calls).toEqual([]);
    expect(fitted.text).toBe(renderDocument(document));
    expect(fitted.fullText).toBe(fitted.text);
    expect(fitted.summarized).toEqual([]);
    expect(fitted.truncated).toBe(false);
  });

  it('summarizes the longest sections first, keeps equations, keeps the full text', async () => {
    const calls: string[] = [];
    const full = renderDocument(document);
    const fitted = await fitDocument(document, {
      maxChars: full.length - 2500,
      summarize: (text, heading) => {
        calls.push(heading);
        expect(text).toContain(`${heading}0`);
        return Promise.resolve(`${heading} in brief.`);
      },
    });
    expect(calls).toEqual(['Method']);
    expect(fitted.summarized).toEqual(['Method']);
    expect(fitted.truncated).toBe(false);
    expect(fitted.text.length).toBeLessThanOrEqual(full.length - 2500);
    expect(fitted.text).toContain('Method in brief.');
    expect(fitted.text).toContain('$$ y = W x $$');
    expect(fitted.text).toContain('Experiments199');
    expect(fitted.fullText).toBe(full);
    expect(fitted.document).toBe(document);
  });

  it('cuts the view and says so when even summaries do not fit', async () => {
    const calls: string[] = [];
    const fitted = await fitDocument(document, {
      maxChars: 300,
      summarize: (_text, heading) => {
        calls.push(heading);
        return Promise.resolve(`${heading} summary `.repeat(20));
      },
    });
    expect(calls).toEqual(['Method', 'Experiments', 'Introduction', 'Conclusion']);
    expect(fitted.summarized).toEqual(['Introduction', 'Method', 'Experiments', 'Conclusion']);
    expect(fitted.truncated).toBe(true);
    expect(fitted.text.length).toBeLessThanOrEqual(300);
    expect(fitted.text).toContain('cut at 300 characters');
  });
});
