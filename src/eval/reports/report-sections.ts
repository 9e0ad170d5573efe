import type { EvalSummary } from '../collection/collect-evaluation.js';
import { categories } from '../collection/category.js';
import {
  type Block,
  heading,
  type Inline,
  links,
  paragraph,
  table,
  text,
} from './report-blocks.js';
import {
  formatNumber,
  formatPercent,
  formatSeconds,
  formatSpread,
  runLink,
} from './report-format.js';
import { starterTrialDir } from '../starter-trials.js';
import { spreadOf } from '../collection/spread.js';
import { verifyLabels } from '../collection/summarize.js';
import { exploreBlocks } from './report-explore.js';
import { verdictBlocks } from './report-verdicts.js';

/** The report's content: the tables of the seed papers, each row linking to its runs. */
export function reportBlocks(summary: EvalSummary): Block[] {
  return [
    ...overviewBlocks(summary),
    ...starterBlocks(summary),
    ...implementBlocks(summary),
    ...verdictBlocks(summary),
    ...comparisonBlocks(summary),
    ...paperBlocks(summary),
    ...judgeBlocks(summary),
    ...exploreBlocks(summary),
    ...everyRunBlocks(summary),
  ];
}

/** The judge's share of the totals, when it was asked anything. */
function judgePart(summary: EvalSummary): string {
  const { judge } = summary.totals;
  if (judge.llmCalls === 0) return '';
  return ` (the judge's ${judge.llmCalls} calls included: ${judge.tokens} tokens, $${judge.costUsd.toFixed(4)})`;
}

/** The title, what was evaluated and spent, and the runs missing. */
function overviewBlocks(summary: EvalSummary): Block[] {
  const blocks: Block[] = [
    heading(1, `Evaluation: ${summary.suite}`),
    paragraph(
      'Suite ',
      { code: summary.suiteFile },
      `; ${summary.totals.finished} of ${summary.totals.runs} runs finished${summary.totals.failed > 0 ? `, ${summary.totals.failed} failed` : ''}; ${summary.totals.llmCalls} model calls, ${summary.totals.tokens} tokens; $${summary.totals.costUsd.toFixed(4)}${judgePart(summary)}; ${formatNumber(summary.totals.wallTimeMs / 1000, 1)} s of run time. Generated ${summary.generatedAt}.`,
    ),
  ];
  if (summary.missing.length > 0) {
    blocks.push(
      paragraph(
        `Missing (${summary.missing.length}): `,
        ...summary.missing.flatMap((key, index): Inline[] => [
          ...(index === 0 ? [] : [', ']),
          { code: key },
        ]),
        '.',
      ),
    );
  }
  const failed = summary.runs.filter((run) => run.error !== undefined);
  if (failed.length > 0) {
    blocks.push(
      paragraph(
        `Failed (${failed.length}; an error ended the run before it had a result, so it is in no category; the next \`codify eval\` of the suite tries it again unless given --keep-failures): `,
        ...failed.flatMap((run, index): Inline[] => [
          ...(index === 0 ? [] : ['; ']),
          { code: run.key },
          ` (${run.error ?? ''})`,
        ]),
        '.',
      ),
    );
  }
  blocks.push(...workerLossBlocks(summary));
  return blocks;
}

/** With a queue: each worker lost while it held runs, and when they were taken again. */
function workerLossBlocks(summary: EvalSummary): Block[] {
  const losses = summary.workersLost ?? [];
  if (losses.length === 0) return [];
  return [
    paragraph(
      `Workers lost (${losses.length}; each run it held went back to the queue and was taken again by another worker): `,
    ),
    table(
      ['worker', 'noticed gone', 'run it held', 'taken again by', 'after'],
      losses.flatMap((loss) =>
        loss.runs.map((run) => [
          text(loss.worker),
          text(loss.at),
          [{ code: run.key }],
          text(
            run.takenAgain === null
              ? 'not yet'
              : `${run.takenAgain.worker} at ${run.takenAgain.at}`,
          ),
          text(
            run.takenAgain === null ? '–' : `${formatNumber(run.takenAgain.afterMs / 1000, 1)} s`,
          ),
        ]),
      ),
    ),
  ];
}

/** The repeated starter runs of each task and the noise margin they give. */
function starterBlocks(summary: EvalSummary): Block[] {
  const noise = Object.entries(summary.noise);
  if (noise.length === 0) return [];
  return [
    heading(2, 'Starter code'),
    paragraph(
      "Each task's starter was run repeatedly in the same sandbox, on its one seed. The noise margin is two sample standard deviations of these runs (0 when they agree or fewer than two printed the metric): nondeterminism under a fixed seed, not seed variance, which only runs on several seeds measure (see the verdicts below).",
    ),
    table(
      ['task', 'runs', 'printed the metric', 'mean', 'std', 'noise margin', 'starter runs'],
      noise.map(([item, value]) => [
        text(item),
        text(value.trials),
        text(value.measured),
        text(value.mean === null ? '–' : formatNumber(value.mean)),
        text(value.std === null ? '–' : formatNumber(value.std)),
        text(formatNumber(value.margin)),
        Array.from({ length: value.trials }, (_, index): Inline[] => [
          ...(index === 0 ? [] : [' ']),
          {
            text: String(index + 1),
            href: runLink(summary.evalDir, starterTrialDir(summary.evalDir, item, index + 1)),
          },
        ]).flat(),
      ]),
    ),
  ];
}

/** ResearchCodeAgent's categories and the effort, per task × strategy × model. */
function implementBlocks(summary: EvalSummary): Block[] {
  if (summary.implement.length === 0) return [];
  return [
    heading(2, 'Implement: outcome categories (ResearchCodeAgent)'),
    paragraph(
      'A: the final code runs and beats the starter by more than the margin across seeds; B: it runs without such an improvement, or with a gain measured on one fixed seed only; C: it errors or prints no metric (on any seed); D: no code was produced. What each verdict rests on is in the next table.',
    ),
    table(
      ['task', 'strategy', 'model', 'runs', ...categories, 'metric', 'improvement', 'run folders'],
      summary.implement.map((group) => [
        text(group.item),
        text(group.strategy),
        text(group.model),
        text(group.runs.length - group.missing - group.failed),
        ...categories.map((category) =>
          text(`${group.counts[category]} (${formatPercent(group.percent[category])})`),
        ),
        text(formatSpread(group.metric)),
        text(formatSpread(group.improvement)),
        links(summary, group.runs),
      ]),
    ),
    heading(2, 'Implement: effort'),
    table(
      [
        'task',
        'strategy',
        'model',
        'lines edited',
        'steps',
        'model calls',
        'tokens',
        'cost ($)',
        'wall time',
        'human time',
        'time saving',
      ],
      summary.implement.map((group) => [
        text(group.item),
        text(group.strategy),
        text(group.model),
        text(formatSpread(group.linesEdited, 1, 1)),
        text(formatSpread(group.steps, 1, 1)),
        text(formatSpread(group.llmCalls, 1, 1)),
        text(formatSpread(group.tokens, 1, 0)),
        text(formatSpread(group.costUsd)),
        text(formatSeconds(group.wallTimeMs)),
        text(group.humanMinutes === null ? '–' : `${group.humanMinutes} min`),
        text(group.timeSaving === null ? '–' : formatPercent(100 * group.timeSaving)),
      ]),
    ),
  ];
}

/** Categories per strategy × model over every task, when there is more than one to compare. */
function comparisonBlocks(summary: EvalSummary): Block[] {
  if (summary.comparisons.length <= 1) return [];
  return [
    heading(2, 'Strategies and models compared (every task)'),
    table(
      ['strategy', 'model', 'runs', ...categories, 'cost ($)', 'wall time'],
      summary.comparisons.map((comparison) => [
        text(comparison.strategy),
        text(comparison.model),
        text(comparison.finished),
        ...categories.map((category) =>
          text(`${comparison.counts[category]} (${formatPercent(comparison.percent[category])})`),
        ),
        text(formatSpread(comparison.costUsd)),
        text(formatSeconds(comparison.wallTimeMs)),
      ]),
    ),
  ];
}

/** PaperCoder's executability, per paper × model. */
function paperBlocks(summary: EvalSummary): Block[] {
  if (summary.papers.length === 0) return [];
  return [
    heading(2, 'Paper: executability (PaperCoder)'),
    table(
      [
        'paper',
        'model',
        'runs',
        ...verifyLabels,
        'lines',
        'share changed by repair',
        'tokens',
        'cost ($)',
        'wall time',
        'run folders',
      ],
      summary.papers.map((group) => [
        text(group.item),
        text(group.model),
        text(group.runs.length - group.missing - group.failed),
        ...verifyLabels.map((label) => text(group.verify[label])),
        text(formatSpread(group.lines, 1, 0)),
        text(
          group.repairLineShare.mean === null
            ? '–'
            : `${formatSpread(group.repairLineShare, 100, 1)} %`,
        ),
        text(formatSpread(group.tokens, 1, 0)),
        text(formatSpread(group.costUsd)),
        text(formatSeconds(group.wallTimeMs)),
        links(summary, group.runs),
      ]),
    ),
  ];
}

/** One row per run, linking to its folder. */
function everyRunBlocks(summary: EvalSummary): Block[] {
  return [
    heading(2, 'Every run'),
    table(
      ['run', 'status', 'outcome', 'steps', 'calls', 'tokens', 'cost ($)', 'wall time', 'folder'],
      summary.runs.map((run) => [
        [{ code: run.key }],
        text(run.status),
        text(
          run.implement !== undefined
            ? `${run.implement.category}${run.implement.metric === null ? '' : ` (${run.implement.metricName ?? 'metric'} ${formatNumber(run.implement.metric)}${run.implement.verdict.fixedSeedGain ? '; gain on the fixed seed' : ''})`}`
            : run.paper !== undefined
              ? run.paper.verify
              : run.explore !== undefined
                ? `${run.explore.ideas} ideas; ${run.explore.experiments.ran} experiments ran, ${run.explore.experiments.improved} improved`
                : '–',
        ),
        text(run.steps),
        text(run.llmCalls),
        text(run.inputTokens + run.outputTokens),
        text(formatNumber(run.costUsd)),
        text(`${formatNumber(run.wallTimeMs / 1000, 1)} s`),
        run.runDir === null
          ? text('–')
          : [{ text: 'run', href: runLink(summary.evalDir, run.runDir) }],
      ]),
    ),
  ];
}

/** A judge score as its samples give it: mean ± standard deviation, range, count, temperature. */
function sampleSummary(score: { score: number; samples: number[]; temperature?: number }): string {
  const spread = spreadOf(score.samples);
  const values = score.samples.map((value) => formatNumber(value, 2)).join(', ');
  const range =
    spread.std === null || spread.min === null || spread.max === null
      ? ''
      : ` ± ${formatNumber(spread.std, 2)} (range ${formatNumber(spread.min, 2)}–${formatNumber(spread.max, 2)})`;
  const temperature =
    score.temperature === undefined ? '' : ` at temperature ${formatNumber(score.temperature, 2)}`;
  return `${formatNumber(score.score, 2)}${range} over ${score.samples.length} sample${score.samples.length === 1 ? '' : 's'}${temperature} (${values})`;
}

function judgeBlocks(summary: EvalSummary): Block[] {
  const judged = summary.runs.filter((run) => run.judge !== undefined || run.rubric !== undefined);
  if (judged.length === 0) return [];
  const blocks: Block[] = [
    heading(2, 'Paper: judge scores and rubric grades'),
    paragraph(
      "Judge score: PaperCoder's reference-free 1–5 score, the mean over the judge's samples (each run below shows their spread). Rubric: the PaperBench tree's weighted score (0–1) from leaf grades of 0 or 1.",
    ),
    table(
      ['paper', 'model', 'judge score', 'judge score (reference-based)', 'rubric score'],
      summary.papers.map((group) => [
        text(group.item),
        text(group.model),
        text(formatSpread(group.judgeScore, 1, 2)),
        text(formatSpread(group.judgeReferenceScore, 1, 2)),
        text(formatSpread(group.rubricScore, 1, 3)),
      ]),
    ),
  ];
  for (const run of judged) {
    blocks.push(heading(3, run.key));
    if (run.runDir !== null)
      blocks.push(paragraph({ text: 'run folder', href: runLink(summary.evalDir, run.runDir) }));
    if (run.judge !== undefined) {
      blocks.push(
        paragraph(
          `Judge score ${sampleSummary(run.judge)}; ${run.judge.split ?? 'the whole paper and repository in one prompt'}.`,
        ),
      );
      const reference = run.judge.reference;
      if (reference !== undefined) {
        blocks.push(
          paragraph(
            `Reference-based judge score ${sampleSummary(reference)}${reference.split === undefined ? '' : `; ${reference.split}`}; its critiques are listed with the others.`,
          ),
        );
      }
      const critiques = [...run.judge.critiques, ...(reference?.critiques ?? [])];
      if (critiques.length > 0) {
        blocks.push(
          table(
            ['severity', 'file', 'function', 'critique'],
            critiques.map((critique) => [
              text(critique.severity),
              text(critique.file),
              text(critique.function || '–'),
              text(critique.critique),
            ]),
          ),
        );
      }
    }
    if (run.rubric !== undefined) {
      blocks.push(
        paragraph(
          `Rubric score ${formatNumber(run.rubric.score, 3)}.${run.rubric.notes === undefined ? '' : ` Not shown whole: ${run.rubric.notes.join('; ')}.`}`,
        ),
        table(
          ['leaf', 'requirement', 'grade', 'reason'],
          run.rubric.leaves.map((leaf) => [
            text(leaf.id),
            text(leaf.requirements),
            text(leaf.score),
            text(
              leaf.selection === 'picked'
                ? `${leaf.reason} (files picked by the judge)`
                : leaf.reason,
            ),
          ]),
        ),
      );
    }
  }
  return blocks;
}
