import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPaper } from '../../src/reader/read-paper.js';
import { renderDocument } from '../../src/reader/render-document.js';
import { headings } from './example-papers.js';

// Printed by Chromium from the HTML beside it (the command is in the HTML's comment).
const fixture = fileURLToPath(
  new URL('../fixtures/chromium/two-columns-then-full-width.pdf', import.meta.url),
);

describe('a Chromium-printed page: two CSS columns, then a full-width section', () => {
  it('reads the left column, the right column, then the full-width section', async () => {
    const document = await readPaper(fixture);
    expect(document.title).toBe('Curriculum Order for Small Sequence Models');
    expect(document.authors).toEqual(['Ana Peña', 'João Conceição']);
    expect(headings(document)).toEqual([
      'introduction',
      'method',
      'results',
      'summary of the comparison',
    ]);
    const text = renderDocument(document);
    // The left column runs on into the right one mid-sentence.
    expect(text).toContain('trained for two hundred steps, and feeds the easiest third first.');
    const [results, summary] = document.sections.slice(-2).map((section) => section.text);
    expect(results).toMatch(/before it must apply it over long ranges\.$/);
    expect(summary).toMatch(/^This section runs across the whole width of the page/);
    expect(summary).not.toContain('long ranges');
  });

  it('composes letters written with a combining tilde and lets no control character through', async () => {
    const text = renderDocument(await readPaper(fixture));
    expect(text).not.toMatch(/\p{Cc}(?<![\n\t])/u);
    expect(text).toContain(
      'Señor Muñoz, whose name is written here with a combining tilde: Muñoz and Señor',
    );
    expect(text).toContain('the São Paulo group');
    // No precomposed g with tilde exists: the letter keeps its combining mark.
    expect(text).toContain('a nasal g as g\u0303, a letter');
  });
});
