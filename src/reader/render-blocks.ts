import type { PaperAlgorithm, PaperTable } from './document.js';

/** A display equation as a Markdown line. */
export function renderEquation(latex: string): string {
  return `$$ ${latex} $$`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** A table as a Markdown pipe table (its raw text when the cells are unknown), caption first. */
export function renderTable(table: PaperTable): string {
  const lines: string[] = [];
  if (table.caption !== undefined) lines.push(`Table: ${table.caption}`, '');
  const [header, ...body] = table.rows;
  if (header === undefined) {
    lines.push(table.raw ?? '');
    return lines.join('\n');
  }
  const width = Math.max(...table.rows.map((row) => row.length));
  const pad = (row: string[]): string[] =>
    Array.from({ length: width }, (_unused, index) => cell(row[index] ?? ''));
  lines.push(`| ${pad(header).join(' | ')} |`);
  lines.push(`|${' --- |'.repeat(width)}`);
  for (const row of body) lines.push(`| ${pad(row).join(' | ')} |`);
  return lines.join('\n');
}

/** An algorithm as a fenced block, its caption on the first line. */
export function renderAlgorithm(algorithm: PaperAlgorithm): string {
  const caption = algorithm.caption !== undefined ? `Algorithm: ${algorithm.caption}\n` : '';
  return `\`\`\`algorithm\n${caption}${algorithm.text}\n\`\`\``;
}
