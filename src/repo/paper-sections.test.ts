import { describe, expect, it } from 'vitest';
import { paperSections } from './paper-sections.js';

const paper = [
  '# A paper',
  '',
  '## 1 Introduction',
  'INTRO',
  '## 3 Model',
  'MODEL',
  '### 3.1 Attention',
  'ATTENTION',
  '### 3.2 Feed-forward layers',
  'FFN',
  '## 4 Training',
  'TRAINING',
  '## Appendix B: Reimplementation Notes',
  'NOTES',
].join('\n');

const headings = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#+ /, ''));

describe('the paper sections a design names for a file', () => {
  it('finds a section by number, title or appendix letter, with its subsections, in paper order', () => {
    const found = paperSections(paper, ['Appendix B', 'Section 3', '3.1 Attention']);
    expect(headings(found.text)).toEqual([
      '3 Model',
      '3.1 Attention',
      '3.2 Feed-forward layers',
      'Appendix B: Reimplementation Notes',
    ]);
    expect(found.unmatched).toEqual([]);
  });

  it('matches a title without its number, whatever its case and punctuation, and says what matched nothing', () => {
    const found = paperSections(paper, ['feed forward layers', 'training', 'Results', '5']);
    expect(headings(found.text)).toEqual(['3.2 Feed-forward layers', '4 Training']);
    expect(found.text).not.toContain('ATTENTION');
    expect(found.unmatched).toEqual(['Results', '5']);
  });

  it('does not take a number for another section when the heading has a different one', () => {
    expect(paperSections(paper, ['4.1 Model']).text).toBe('');
  });
});
