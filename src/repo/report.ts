import type { CodeDefault } from './code-defaults.js';
import type { Experiment } from './schemas.js';
import { selfCheckLines, type SelfCheckResult } from './self-check.js';
import type { StageRow, StageUsage } from './stage-table.js';
import type { TestRun } from './repository-tests.js';
import type { VerifyOutcome } from './verify.js';
import type { RepositoryEnvironment } from './virtual-environment.js';

export interface RepoReport {
  title: string;
  repository: string;
  entryPoint: string;
  /** The source files (text), by lines. */
  files: { path: string; lines: number }[];
  /** Files that are not text, by size; absent when there are none. */
  binaryFiles?: { path: string; bytes: number }[];
  stages: StageRow[];
  totals: StageUsage;
  verify: VerifyOutcome | { ok: false; summary: string; skipped: true };
  droppedConfigKeys: string[];
  /** Config keys the paper does not state, written as implementation choices with a reason. */
  implementationChoices?: string[];
  /** Settings the code gives a value of its own beside config.yaml (a defaults table, a fallback). */
  codeDefaults?: CodeDefault[];
  interfacesUsed: Record<string, string[]>;
  /** The virtual environment made for run requirements the interpreter lacked. */
  environment?: RepositoryEnvironment;
  /** The repository's own tests, run after the smoke run. */
  tests?: TestRun;
  /** The checklist's code leaves graded before and after the fix round. */
  selfCheck?: SelfCheckResult;
  /** The paper's experiments as planning mapped them (the README's map). */
  experiments?: Experiment[];
  /** The paper as planning saw it against the condensed paper the later stages saw. */
  paper?: { characters: number; condensedCharacters: number; condensed: string[] };
}

const money = (cost: number | null) => (cost === null ? 'unknown' : `$${cost.toFixed(4)}`);

/** The run report as Markdown: files, lines, tokens and cost per stage, verify outcome. */
export function renderReport(report: RepoReport): string {
  const stageRows = report.stages.map(
    (stage) =>
      `| ${stage.stage} | ${stage.calls} | ${stage.inputTokens} | ${stage.cachedInputTokens} | ${stage.outputTokens} | ${money(stage.costUsd)} | ${(stage.durationMs / 1000).toFixed(1)} s | ${stage.commit ?? ''} |`,
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
    ...environmentLines(report.environment),
    ...testLines(report.tests),
    ...selfCheckLines(report.selfCheck, report.experiments),
    '',
    '| stage | calls | input tokens | of which cached | output tokens | cost | time | commit |',
    '|---|---|---|---|---|---|---|---|',
    ...stageRows,
    `| total | ${report.totals.calls} | ${report.totals.inputTokens} | ${report.totals.cachedInputTokens} | ${report.totals.outputTokens} | ${money(report.totals.costUsd)} | | |`,
    '',
    '| file | lines |',
    '|---|---|',
    ...fileRows,
    ...binaryLines(report.binaryFiles),
    '',
    ...configLines(report),
    ...paperLines(report.paper),
    '',
  ].join('\n');
}

/** What config.yaml holds and where the code keeps values of its own. */
function configLines(report: RepoReport): string[] {
  const choices = report.implementationChoices ?? [];
  const defaults = report.codeDefaults ?? [];
  return [
    report.droppedConfigKeys.length > 0
      ? `Config keys left out because their quote is not in the paper: ${report.droppedConfigKeys.join(', ')}.`
      : choices.length === 0
        ? 'Every config value is traced to a quote of the paper.'
        : 'Every config value the paper states is traced to a quote of it.',
    ...(choices.length === 0
      ? []
      : [
          `Implementation choices in config.yaml (not stated by the paper, each with its reason): ${choices.join(', ')}.`,
        ]),
    ...(defaults.length === 0
      ? []
      : [
          `Settings the code gives a value of its own beside config.yaml: ${defaults.map((item) => `${item.path}:${item.line} \`${item.text}\``).join('; ')}.`,
        ]),
  ];
}

function paperLines(paper: RepoReport['paper']): string[] {
  if (paper === undefined) return [];
  const condensed =
    paper.condensed.length === 0 ? 'nothing condensed' : `condensed: ${paper.condensed.join(', ')}`;
  return [
    '',
    `Paper: ${paper.characters} characters for planning; each file is shown the sections its design names, or ${paper.condensedCharacters} characters condensed when it names none (${condensed}; paper-condensed.md in the run folder).`,
  ];
}

function environmentLines(environment: RepositoryEnvironment | undefined): string[] {
  if (environment === undefined) return [];
  const wanted = [...environment.requirements, ...environment.testRequirements].join(' ');
  if (environment.venv === undefined)
    return [
      '',
      `Environment: the interpreter lacked ${wanted}; no virtual environment could be made (\`${environment.create.command}\` failed), so the smoke run used ${environment.interpreter} as it is.`,
    ];
  const lines = [
    '',
    `Environment: a virtual environment at ${environment.venv}, used by the smoke run and the tests.`,
    environment.constraints === undefined
      ? '- The packages the interpreter provides could not be listed, so pip ran without constraints.'
      : `- pip ran under ${environment.constraints.path}: the packages the interpreter provides (and, for the test requirements, what the run requirements added) pinned at their installed versions, ${environment.constraints.pinned} in all.`,
    ...(environment.conflicts ?? []).map(
      (conflict) =>
        `- **Not installed: ${conflict.requirement}** — no version fits the pinned packages (${conflict.reason}).`,
    ),
  ];
  // A requirement left out for a conflict is named above; its install line lists the rest.
  const conflicted = new Set((environment.conflicts ?? []).map((conflict) => conflict.requirement));
  const installs = [
    {
      what: 'the run requirements',
      outcome: environment.install,
      wanted: environment.requirements,
    },
    {
      what: 'the test requirements',
      outcome: environment.testInstall,
      wanted: environment.testRequirements,
    },
  ];
  for (const { what, outcome, wanted } of installs) {
    const names = wanted.filter((name) => !conflicted.has(name));
    if (outcome === undefined || names.length === 0) continue;
    lines.push(
      outcome.ok
        ? `- \`pip install ${names.join(' ')}\` (${what}) succeeded.`
        : `- \`pip install ${names.join(' ')}\` (${what}) failed, so the runs went ahead without them:`,
    );
    if (!outcome.ok) lines.push('', '```', outcome.outputTail, '```');
  }
  return lines;
}

function testLines(tests: TestRun | undefined): string[] {
  if (tests === undefined) return ['', 'Tests: the repository has no test files.'];
  const counts =
    tests.passed === undefined
      ? ''
      : ` (${tests.passed} passed, ${tests.failed ?? 0} failed, ${tests.errors ?? 0} errors)`;
  const outcome = tests.ok
    ? 'pass'
    : tests.note !== undefined
      ? 'not run'
      : tests.timedOut
        ? 'timed out'
        : `fail (exit ${String(tests.exitCode)})`;
  return [
    '',
    `**Tests: ${outcome}**${counts} — \`${tests.command}\` in ${(tests.durationMs / 1000).toFixed(1)} s (output: ${tests.outputPath})${tests.note === undefined ? '' : `; ${tests.note}`}.`,
  ];
}

function binaryLines(binaryFiles: RepoReport['binaryFiles']): string[] {
  if (binaryFiles === undefined || binaryFiles.length === 0) return [];
  const sizes = binaryFiles.map((file) => `${file.path} (${(file.bytes / 1024).toFixed(1)} KB)`);
  return ['', `Files that are not source: ${sizes.join(', ')}.`];
}
