import type { EvalSummary } from '../collection/collect-evaluation.js';
import type { Block, Inline } from './report-blocks.js';
import { reportCharts } from './report-charts.js';
import { reportBlocks } from './report-sections.js';

const escape = (value: string): string =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

function inline(parts: Inline[]): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return escape(part);
      if ('code' in part) return `<code>${escape(part.code)}</code>`;
      return `<a href="${escape(encodeURI(part.href))}">${escape(part.text)}</a>`;
    })
    .join('');
}

const style = `body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:0.5rem 0 1.5rem;font-size:0.9rem}
th,td{border:1px solid #ccc;padding:0.25rem 0.5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}code{background:#f3f3f3;padding:0 0.2rem}
figure{margin:1rem 0 2rem}figcaption{font-size:0.9rem;color:#555}`;

export function blocksToHtml(title: string, blocks: Block[]): string {
  const body = blocks.map((block) => {
    switch (block.kind) {
      case 'heading':
        return `<h${block.level}>${escape(block.text)}</h${block.level}>`;
      case 'paragraph':
        return `<p>${inline(block.parts)}</p>`;
      case 'table':
        return `<table><thead><tr>${block.headers.map((header) => `<th>${escape(header)}</th>`).join('')}</tr></thead><tbody>${block.rows
          .map((cells) => `<tr>${cells.map((parts) => `<td>${inline(parts)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`;
      case 'chart':
        // The SVG comes from Vega, made from our own data; it is inlined so the file stands alone.
        return `<figure>${block.svg}<figcaption>${escape(block.caption)}</figcaption></figure>`;
    }
  });
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${style}</style></head><body>\n${body.join('\n')}\n</body></html>\n`;
}

/** report.html: one self-contained file, the charts first (as inline SVG), then every table. */
export async function renderHtmlReport(summary: EvalSummary): Promise<string> {
  const blocks = reportBlocks(summary);
  const charts = await reportCharts(summary);
  // The charts go under the title and summary paragraphs, above the tables.
  const firstTable = blocks.findIndex((block, index) => index > 0 && block.kind === 'heading');
  const at = firstTable === -1 ? blocks.length : firstTable;
  const withCharts = [
    ...blocks.slice(0, at),
    ...(charts.length > 0
      ? [{ kind: 'heading', level: 2, text: 'Charts' } as const, ...charts]
      : []),
    ...blocks.slice(at),
  ];
  return blocksToHtml(`Evaluation: ${summary.suite}`, withCharts);
}
