import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvalSummary } from '../collection/collect-evaluation.js';
import { renderHtmlReport } from './report-html.js';
import { renderMarkdownReport } from './report-markdown.js';

export interface ReportPaths {
  markdown: string;
  json: string;
  html: string;
}

/** Writes report.json, report.md and report.html into the evaluation folder. */
export async function writeReports(summary: EvalSummary): Promise<ReportPaths> {
  const paths = {
    markdown: join(summary.evalDir, 'report.md'),
    json: join(summary.evalDir, 'report.json'),
    html: join(summary.evalDir, 'report.html'),
  };
  await writeFile(paths.json, `${JSON.stringify(summary, null, 2)}\n`, 'utf8');
  await writeFile(paths.markdown, renderMarkdownReport(summary), 'utf8');
  await writeFile(paths.html, await renderHtmlReport(summary), 'utf8');
  return paths;
}
