import type { EvalSummary } from '../collection/collect-evaluation.js';
import type { Block, Inline } from './report-blocks.js';
import { reportBlocks } from './report-sections.js';

// A table cell may not hold a raw pipe or line break.
const escapeCell = (value: string): string => value.replaceAll('|', '\\|').replace(/\r?\n/g, ' ');

function inline(parts: Inline[], inTable: boolean): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return inTable ? escapeCell(part) : part;
      if ('code' in part) return `\`${part.code}\``;
      return `[${inTable ? escapeCell(part.text) : part.text}](${part.href.replaceAll(' ', '%20')})`;
    })
    .join('');
}

export function blocksToMarkdown(blocks: Block[]): string {
  const lines: string[] = [];
  for (const block of blocks) {
    switch (block.kind) {
      case 'heading':
        lines.push(
          `${'#'.repeat(block.level)} ${block.level === 3 ? `\`${block.text}\`` : block.text}`,
          '',
        );
        break;
      case 'paragraph':
        lines.push(inline(block.parts, false), '');
        break;
      case 'table': {
        const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
        lines.push(
          row(block.headers),
          row(block.headers.map(() => '---')),
          ...block.rows.map((cells) => row(cells.map((parts) => inline(parts, true)))),
          '',
        );
        break;
      }
      case 'chart':
        break;
    }
  }
  return lines.join('\n');
}

/** report.md: the tables of the seed papers, each row linking to the runs it was computed from. */
export function renderMarkdownReport(summary: EvalSummary): string {
  return blocksToMarkdown(reportBlocks(summary));
}
