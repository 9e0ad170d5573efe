import type { StageUsage } from './metered-caller.js';
import type { VerifyOutcome } from './verify.js';

export interface RepoReport {
  title: string;
  repository: string;
  entryPoint: string;
  files: { path: string; lines: number }[];
  stages: ({ stage: string; durationMs: number; commit?: string } & StageUsage)[];
  totals: StageUsage;
  verify: VerifyOutcome | { ok: false; summary: string; skipped: true };
  droppedConfigKeys: string[];
  interfacesUsed: Record<string, string[]>;
}

const money = (cost: number | null) => (cost === null ? 'unknown' : `$${cost.toFixed(4)}`);

/** The run report as Markdown: files, lines, tokens and cost per stage, verify outcome. */
export function renderReport(report: RepoReport): string {
  const stageRows = report.stages.map(
    (stage) =>
      `| ${stage.stage} | ${stage.calls} | ${stage.inputTokens} | ${stage.outputTokens} | ${money(stage.costUsd)} | ${(stage.durationMs / 1000).toFixed(1)} s | ${stage.commit ?? ''} |`,
  );
  const fileRows = report.files.map((file) => `| ${file.path} | ${file.lines} |`);
  const runs =
    'runs' in report.verify
      ? report.verify.runs
          .map(
            (run) =>
              `- smoke run ${run.attempt}: ${run.ok ? 'ok' : run.timedOut ? 'timed out' : `exit ${String(run.exitCode)}`} in ${(run.durationMs / 1000).toFixed(1)} s (output: ${run.outputPath})`,
          )
          .join('\n')
      : '';
  return [
    `# ${report.title}`,
    '',
    `Repository: ${report.repository} (entry point \`${report.entryPoint}\`)`,
    '',
    `**Verify: ${report.verify.ok ? 'runs' : 'does not run'}** — ${report.verify.summary}.`,
    runs,
    '',
    '| stage | calls | input tokens | output tokens | cost | time | commit |',
    '|---|---|---|---|---|---|---|',
    ...stageRows,
    `| total | ${report.totals.calls} | ${report.totals.inputTokens} | ${report.totals.outputTokens} | ${money(report.totals.costUsd)} | | |`,
    '',
    '| file | lines |',
    '|---|---|',
    ...fileRows,
    '',
    report.droppedConfigKeys.length > 0
      ? `Config keys left out because their quote is not in the paper: ${report.droppedConfigKeys.join(', ')}.`
      : 'Every config value is traced to a quote of the paper.',
    '',
  ].join('\n');
}

export function sumStages(stages: StageUsage[]): StageUsage {
  return stages.reduce<StageUsage>(
    (total, stage) => ({
      calls: total.calls + stage.calls,
      inputTokens: total.inputTokens + stage.inputTokens,
      outputTokens: total.outputTokens + stage.outputTokens,
      cachedInputTokens: total.cachedInputTokens + stage.cachedInputTokens,
      costUsd:
        total.costUsd === null || stage.costUsd === null ? null : total.costUsd + stage.costUsd,
    }),
    { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: 0 },
  );
}
