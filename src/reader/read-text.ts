import { DocumentBuilder } from './document-builder.js';
import type { PaperDocument, PaperTable } from './document.js';
import { looksMathematical } from './math-line.js';
import { splitAuthors } from './normalize.js';

const numberedHeading = /^(\d+(?:\.\d+){0,2})\.?\s+([A-Z][^]{0,80})$/;
const tableCaption = /^Table\s+\d+\s*[.:]\s*(.*)$/i;
const algorithmCaption = /^Algorithm\s+\d+\s*[.:]?\s*(.*)$/i;
const abstractLead = /^abstract\s*[.:—-]\s*/i;

function heading(line: string): { text: string; level: number } | undefined {
  const text = line.trim();
  if (text.length === 0 || text.length > 90 || /[.,;:]$/.test(text)) return undefined;
  const numbered = numberedHeading.exec(text);
  if (numbered?.[1]) return { text, level: numbered[1].split('.').length };
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length >= 3 && letters === letters.toUpperCase() && !looksMathematical(text)) {
    const title = text
      .toLowerCase()
      .replace(/(^|\s)([a-z])/g, (_whole, space: string, first: string) => {
        return `${space}${first.toUpperCase()}`;
      });
    return { text: title, level: 1 };
  }
  if (/^abstract$/i.test(text)) return { text, level: 1 };
  return undefined;
}

/** Cells of a table row: separated by tabs, pipes, or runs of two or more spaces. */
function cells(line: string): string[] {
  const trimmed = line.trim();
  const parts = trimmed.includes('|')
    ? trimmed.replace(/^\||\|$/g, '').split('|')
    : trimmed.split(/\t+|\s{2,}/);
  return parts.map((cell) => cell.trim()).filter((cell) => cell.length > 0);
}

/**
 * Reads a plain-text paper: the first line is the title, the next short line the authors;
 * headings are numbered ("2.1 Method") or ALL CAPS lines; paragraphs are separated by
 * blank lines; a paragraph that is one mathematical line is a display equation;
 * "Table N:" and "Algorithm N:" start tables and algorithms.
 */
export function readText(source: string, path: string): PaperDocument {
  const blocks = source
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim().length > 0))
    .filter((block) => block.length > 0);
  const builder = new DocumentBuilder();
  const first = blocks.shift() ?? [];
  builder.title = first[0]?.trim() ?? '';
  const authorLine = first[1] ?? (blocks[0]?.length === 1 ? blocks[0][0] : undefined);
  if (authorLine !== undefined && authorLine.length < 200 && !heading(authorLine)) {
    builder.authors = splitAuthors(authorLine);
    if (first[1] === undefined) blocks.shift();
  }
  for (const block of blocks) {
    let lines = block;
    const found = heading(lines[0] ?? '');
    if (found) {
      builder.heading(found.text, found.level);
      lines = lines.slice(1);
      if (lines.length === 0) continue;
    }
    const text = lines.map((line) => line.trim()).join(' ');
    const table = tableCaption.exec(lines[0]?.trim() ?? '');
    const algorithm = algorithmCaption.exec(lines[0]?.trim() ?? '');
    if (table && lines.length > 1) {
      const found: PaperTable = { caption: table[1], rows: lines.slice(1).map(cells) };
      builder.table(found);
    } else if (algorithm && lines.length > 1) {
      const steps = lines.slice(1);
      const indent = Math.min(...steps.map((line) => line.length - line.trimStart().length));
      builder.algorithm({
        caption: algorithm[1],
        text: steps.map((line) => line.slice(indent)).join('\n'),
      });
    } else if (lines.every((line) => looksMathematical(line))) {
      builder.equation(text);
    } else if (abstractLead.test(text) && builder.abstract.length === 0) {
      builder.abstract = text.replace(abstractLead, '');
    } else {
      builder.paragraph(lines.map((line) => line.trim()).join('\n'));
    }
  }
  return builder.build({ format: 'text', path });
}
