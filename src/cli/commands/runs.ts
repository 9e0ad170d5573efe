import type { Command } from 'commander';
import { countSchema, jsonOption, parseNumberFlag, runFolderOption } from '../options.js';
import { listRuns, type RunSummary } from '../../runs/list-runs.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { formatAge, formatCost, formatTokens } from '../render/format-values.js';
import { renderColumns } from '../render/render-table.js';

export interface RunsCommandOptions {
  root?: string;
  json?: boolean;
  limit?: number;
  all?: boolean;
}

/** What `codify runs` prints: newest first, as a table or a JSON array. */
export function runsCommandOutput(options: RunsCommandOptions, now = Date.now()): string {
  const root = resolveRunsRoot(options.root);
  const summaries = listRuns(root).reverse();
  if (options.json === true) return `${JSON.stringify(summaries, null, 2)}\n`;
  if (summaries.length === 0) {
    return `No runs in ${root}. codify implement and codify paper each record one there (--root or CODIFY_RUNS_DIR to look elsewhere).\n`;
  }
  const limit = options.all === true ? summaries.length : (options.limit ?? 30);
  const shown = summaries.slice(0, limit);
  const table = renderColumns(
    ['RUN', 'MODE', 'STATUS', 'STEPS', 'TOKENS', 'COST', 'AGE'],
    shown.map((summary) => runRow(summary, now)),
    new Set([3, 4, 5, 6]),
  );
  const hidden = summaries.length - shown.length;
  return `${table}\n${hidden > 0 ? `… ${hidden} older runs (--all to list them)\n` : ''}`;
}

function runRow(summary: RunSummary, now: number): string[] {
  return [
    summary.id,
    summary.mode,
    summary.status,
    String(summary.totals.steps),
    formatTokens(summary.totals.inputTokens + summary.totals.outputTokens),
    formatCost(summary.totals),
    formatAge(now - Date.parse(summary.startedAt)),
  ];
}

/** `codify runs [--root DIR] [--json] [--limit N] [--all]` */
export function registerRunsCommand(program: Command): void {
  program
    .command('runs')
    .description('list recorded runs, newest first: mode, status, steps, tokens, cost, age')
    .addOption(runFolderOption('holding'))
    .addOption(jsonOption('the summaries as a JSON array'))
    .option(
      '--limit <count>',
      'show at most this many runs (default 30)',
      parseNumberFlag('--limit', countSchema),
    )
    .option('--all', 'show every run')
    .action((options: RunsCommandOptions) => {
      process.stdout.write(runsCommandOutput(options));
    });
}
