import { reportError } from '../report-error.js';
import type { Command } from 'commander';
import { jsonOption, runFolderOption } from '../options.js';
import { followEvents } from '../../runs/follow-events.js';
import { findRun, RunNotFoundError } from '../../runs/find-run.js';
import { summarizeRun } from '../../runs/list-runs.js';
import { readEvents } from '../../runs/read-events.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { formatTimeline } from '../render/format-event.js';
import { formatCost, formatTokens } from '../render/format-values.js';
import { renderTable } from '../render/render-table.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { outputFormatOption, wantsJsonStream, type OutputFormat } from '../render/output-format.js';

export interface ShowCommandOptions {
  root?: string;
  json?: boolean;
  outputFormat?: OutputFormat;
  follow?: boolean;
}

/** The summary header `codify show` prints above the timeline. */
export function showHeader(runDirectory: string): string {
  const summary = summarizeRun(runDirectory);
  return renderTable([
    ['run', summary.id],
    ['name', summary.name],
    ['mode', summary.mode],
    ['status', summary.status],
    ['started', summary.startedAt],
    ['steps', summary.totals.steps],
    ['llm calls', summary.totals.llmCalls],
    [
      'tokens',
      `${formatTokens(summary.totals.inputTokens)} in, ${formatTokens(summary.totals.outputTokens)} out`,
    ],
    ['cost', formatCost(summary.totals)],
    ['folder', summary.dir],
  ]);
}

/** What `codify show RUN` prints for a finished look (no --follow). */
export function showCommandOutput(
  runDirectory: string,
  json: boolean,
): { out: string; err: string } {
  const { events, problems, partialBytes } = readEvents(runDirectory);
  const warnings = problems.map(
    (problem) => `warning: events.jsonl line ${problem.line} skipped: ${problem.message}\n`,
  );
  if (partialBytes > 0) {
    warnings.push(
      `note: the last ${partialBytes} bytes are an event still being written (or cut off by a kill)\n`,
    );
  }
  const out = json
    ? events.map((event) => `${JSON.stringify(event)}\n`).join('')
    : `${showHeader(runDirectory)}\n\n${formatTimeline(events).join('\n')}\n`;
  return { out, err: warnings.join('') };
}

async function showRun(reference: string, options: ShowCommandOptions): Promise<void> {
  const root = resolveRunsRoot(options.root);
  let runDirectory: string;
  try {
    runDirectory = findRun(reference, root);
  } catch (error) {
    if (!(error instanceof RunNotFoundError)) throw error;
    reportError('show', error);
    return;
  }
  const json = wantsJsonStream(options);
  if (options.follow !== true) {
    const { out, err } = showCommandOutput(runDirectory, json);
    process.stdout.write(out);
    process.stderr.write(err);
    return;
  }
  if (!json) process.stdout.write(`${showHeader(runDirectory)}\n\n`);
  const renderer = createTerminalRenderer({
    json,
    stream: process.stdout,
    isTTY: process.stdout.isTTY,
  });
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    await followEvents(runDirectory, renderer, controller.signal, {
      untilRunEnd: true,
      onProblem: (problem) =>
        process.stderr.write(
          `warning: events.jsonl line ${problem.line} skipped: ${problem.message}\n`,
        ),
    });
  } finally {
    process.off('SIGINT', stop);
    renderer.finish();
  }
}

/** `codify show RUN [--root DIR] [--json] [--follow]` */
export function registerShowCommand(program: Command): void {
  program
    .command('show')
    .description("print one run's timeline: steps, LLM calls, actions, executions, guards, budgets")
    .argument('<run>', 'run folder, run id, a unique part of an id, or "last"')
    .addOption(runFolderOption('holding'))
    .addOption(jsonOption('the raw events, one JSON object per line'))
    .addOption(outputFormatOption())
    .option('--follow', 'keep printing new events until the run ends (Ctrl-C to stop)')
    .action(async (reference: string, options: ShowCommandOptions) => {
      await showRun(reference, options);
    });
}
