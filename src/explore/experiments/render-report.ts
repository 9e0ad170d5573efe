import { relative } from 'node:path';
import type { ExperimentRecord } from './run-experiments.js';

const number = (value: number | null | undefined) =>
  value === null || value === undefined ? 'none' : String(value);

const seedCell = (record: ExperimentRecord) => {
  const seeds = record.metric?.seeds;
  if (seeds === undefined) return 'none';
  const printed = seeds.runs.filter((entry) => entry.value !== null).length;
  return `${seeds.mean} ± ${seeds.sd} (${printed}/${seeds.runs.length})`;
};

/** Grounding: the plan's steps the prototype could not run, each with the reason. */
function notRunLines(record: ExperimentRecord): string[] {
  if (record.notRun === undefined || record.notRun.length === 0) return [];
  return [
    '**Not run (the prototype cannot run these steps of the plan).**',
    ...record.notRun.map((entry) => `- ${entry.step} — ${entry.reason}`),
    '',
  ];
}

/** Whether the measurement supports the hypothesis: better than the baseline on its metric. */
export function verdictOf(record: ExperimentRecord): string {
  if (record.status !== 'ran') return `not tested (${record.status}: ${record.reason})`;
  const seeds = record.metric?.seeds;
  if (seeds !== undefined) {
    if (seeds.beyondMargin) return "supported: better than the baseline beyond the seeds' margin";
    if (seeds.improvement > 0)
      return "not supported: better than the baseline, but within the seeds' margin";
    if (seeds.improvement === 0) return "not supported: the seeds' mean equals the baseline";
    return "not supported: the seeds' mean is worse than the baseline";
  }
  const improvement = record.metric?.improvement ?? null;
  if (improvement === null) return 'not measured: the run printed no value for the metric';
  if (improvement > 0) return 'supported: better than the baseline';
  if (improvement === 0) return 'not supported: equal to the baseline';
  return 'not supported: worse than the baseline';
}

/** The paired effects per metric, as a table; nothing where no seeds were paired. */
function pairedLines(record: ExperimentRecord): string[] {
  const paired = record.paired;
  if (paired === undefined || paired.metrics.length === 0) return [];
  return [
    `**Paired with the baseline on seeds ${paired.seeds.join(', ')}.**`,
    '',
    '| metric | goal | idea mean | baseline mean | paired effect | margin | pairs | beyond margin |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...paired.metrics.map(
      (metric) =>
        `| ${metric.name}${metric.primary ? ' (ranked by)' : ''} | ${metric.goal ?? 'none (idea − baseline)'} | ${number(metric.ideaMean)} | ${number(metric.baselineMean)} | ${number(metric.effect?.effect)} | ${number(metric.effect?.margin)} | ${metric.effect?.pairs.length ?? 0} | ${metric.effect === null ? '—' : metric.effect.beyondMargin ? 'yes' : 'no'} |`,
    ),
    '',
  ];
}

/** The judge's verdict on the hypothesis by its stop criteria, or why there is none. */
export function hypothesisLine(record: ExperimentRecord): string {
  if (record.verdict !== undefined) {
    return `${record.verdict.verdict} (judged by the stop criteria "${record.verdict.stopCriteria}"): ${record.verdict.reason}`;
  }
  if (record.verdictProblem !== undefined) return `none: ${record.verdictProblem}`;
  return record.status === 'ran'
    ? 'none: fewer than two seeds were paired with the baseline'
    : 'none: the experiment did not run';
}

/**
 * report.md: ideas ranked by what their experiments measured, the judge's score beside.
 * Every measured number names the result.json it comes from (`metric.value`, `metric.starter`);
 * the improvement is computed from those two; the judge score comes from ideas.json.
 */
export function renderExperimentReport(
  records: readonly ExperimentRecord[],
  exploreRunDir: string,
): string {
  const where = (record: ExperimentRecord) =>
    record.resultPath === undefined
      ? '—'
      : `[${record.runId ?? ''}](${relative(exploreRunDir, record.resultPath)})`;
  const lines = [
    '# Experiments',
    '',
    'Ideas ranked by the effect their experiment measured over the baseline (positive is',
    "better for the metric's goal): where the plan's seeds ran, the final script and the",
    'unchanged baseline ran on the same seeds and the effect is the mean per-seed difference',
    "less its margin, t(97.5 %, n − 1)·sd/√n of the differences; else the single run's",
    "improvement. The judge's score (ideas.json) is beside it. The final run and its starter",
    "are the implement run's own last run (`metric.value` and `metric.starter` of the run",
    'linked in its row), which the ranking uses only where no seeds ran; each seed value is read',
    "from that run's `outputs/seed-N-*.txt` (its `CODIFY_RESULT` line, else its last metric",
    "line), each baseline seed's from `experiments/baseline/seeds/seed-N/`.",
    '',
    '| rank | idea | metric | goal | final run | starter | final run − starter | judge | run | seeds mean ± sd | margin | paired effect − margin |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...records.map(
      (record, index) =>
        `| ${index + 1} | ${record.idea} ${record.title.replace(/\|/g, '\\|')} | ${record.metric?.name ?? '—'} | ${record.metric?.goal ?? '—'} | ${number(record.metric?.value)} | ${number(record.metric?.baseline)} | ${number(record.metric?.improvement)} | ${record.judgeScore.toFixed(2)} | ${where(record)} | ${seedCell(record)} | ${number(record.metric?.seeds?.margin)} | ${number(record.metric?.seeds?.effect)} |`,
    ),
    '',
  ];
  for (const record of records) {
    lines.push(
      `## ${record.idea}. ${record.title}`,
      '',
      `**Hypothesis.** ${record.hypothesis}`,
      '',
      `**What ran.** ${record.status === 'ran' ? `an implement run, ${record.runDir === undefined ? '' : relative(exploreRunDir, record.runDir)}, outcome ${record.outcome ?? ''}: ${record.reason}` : `nothing: ${record.reason}`}`,
      '',
      ...(record.metric?.seeds === undefined
        ? []
        : [
            `**Seeds.** ${record.metric.seeds.runs
              .map(
                (entry) =>
                  `seed ${entry.seed}: ${number(entry.value)} ([output](${relative(exploreRunDir, entry.outputPath)}))`,
              )
              .join('; ')}.`,
            '',
          ]),
      ...notRunLines(record),
      ...pairedLines(record),
      `**Measured.** ${verdictOf(record)}.`,
      '',
      `**Hypothesis verdict.** ${hypothesisLine(record)}`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}
