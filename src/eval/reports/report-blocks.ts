import type { EvalSummary } from '../collection/collect-evaluation.js';
import { runLink } from './report-format.js';

/** Text, a link or code: what a report's paragraphs and table cells are made of. */
export type Inline = string | { text: string; href: string } | { code: string };

/** A report as blocks, rendered to Markdown and to HTML from the same content. */
export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; parts: Inline[] }
  | { kind: 'table'; headers: string[]; rows: Inline[][][] }
  /** A chart: rendered in HTML only (Markdown readers get the tables). */
  | { kind: 'chart'; svg: string; caption: string };

export const cell = (...parts: Inline[]): Inline[] => parts;
export const text = (value: string | number): Inline[] => [String(value)];

/** Links to the runs of a row, numbered by trial; a missing run says so. */
export function links(
  summary: EvalSummary,
  runs: { key: string; runDir: string | null; status: string; error?: string }[],
): Inline[] {
  return runs.flatMap((run, index): Inline[] => {
    const gap = index === 0 ? [] : [' '];
    if (run.runDir === null) return [...gap, `${index + 1}: missing`];
    return [
      ...gap,
      { text: String(index + 1), href: runLink(summary.evalDir, run.runDir) },
      ...(run.status === 'interrupted' ? [' (interrupted)'] : []),
      ...(run.error === undefined ? [] : [' (failed)']),
    ];
  });
}

export const heading = (level: 1 | 2 | 3, value: string): Block => ({
  kind: 'heading',
  level,
  text: value,
});
export const paragraph = (...parts: Inline[]): Block => ({ kind: 'paragraph', parts });
export const table = (headers: string[], rows: Inline[][][]): Block => ({
  kind: 'table',
  headers,
  rows,
});
