import { categories, type Category } from './category.js';
import type { StarterNoise } from './noise-margin.js';
import { hypothesisVerdicts, noveltyVerdicts } from './read-explore.js';
import { isFinished, type RunRecord, type VerifyOutcomeLabel } from './run-record.js';
import { type Spread, spreadOf } from './spread.js';

/** The runs of one row of a table, with where each came from. */
interface GroupRuns {
  runs: { key: string; runDir: string | null; status: RunRecord['status']; error?: string }[];
  /** Combinations not run yet or interrupted. */
  missing: number;
  /** Combinations whose run an error ended (scored as failures, in no category). */
  failed: number;
  steps: Spread;
  llmCalls: Spread;
  tokens: Spread;
  costUsd: Spread;
  wallTimeMs: Spread;
}

export interface ImplementGroup extends GroupRuns {
  item: string;
  strategy: string;
  model: string;
  counts: Record<Category, number>;
  /** Of the finished runs, in percent. */
  percent: Record<Category, number>;
  metric: Spread;
  improvement: Spread;
  linesEdited: Spread;
  /** A person's stated coding time for the item, when the suite gives it. */
  humanMinutes: number | null;
  /** 1 − mean wall time / human time, as ResearchCodeAgent reports time saving; null without one. */
  timeSaving: number | null;
}

export const verifyLabels: readonly VerifyOutcomeLabel[] = [
  'ran as generated',
  'ran after repair',
  'did not run',
  'not verified',
];

export interface PaperGroup extends GroupRuns {
  item: string;
  model: string;
  verify: Record<VerifyOutcomeLabel, number>;
  repairLineShare: Spread;
  lines: Spread;
  /** PaperCoder's 1–5 judge score over the trials (each trial itself a mean over samples). */
  judgeScore: Spread;
  /** The reference-based judge score, where the suite gives a reference repository. */
  judgeReferenceScore: Spread;
  /** The rubric's weighted score (0–1) over the trials. */
  rubricScore: Spread;
}

const failedOf = (records: RunRecord[]): number =>
  records.filter((record) => record.error !== undefined).length;

function groupRuns(records: RunRecord[]): GroupRuns {
  const finished = records.filter(isFinished);
  return {
    runs: records.map((record) => ({
      key: record.key,
      runDir: record.runDir,
      status: record.status,
      ...(record.error === undefined ? {} : { error: record.error }),
    })),
    missing: records.length - finished.length - failedOf(records),
    failed: failedOf(records),
    steps: spreadOf(finished.map((record) => record.steps)),
    llmCalls: spreadOf(finished.map((record) => record.llmCalls)),
    tokens: spreadOf(finished.map((record) => record.inputTokens + record.outputTokens)),
    costUsd: spreadOf(finished.map((record) => record.costUsd)),
    wallTimeMs: spreadOf(finished.map((record) => record.wallTimeMs)),
  };
}

function byKey<T>(records: T[], key: (record: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const record of records) {
    const name = key(record);
    groups.set(name, [...(groups.get(name) ?? []), record]);
  }
  return groups;
}

export function implementGroups(
  records: RunRecord[],
  humanMinutes: Record<string, number>,
): ImplementGroup[] {
  const tasks = records.filter((record) => record.kind === 'task');
  const groups = byKey(tasks, (record) => `${record.item}\0${record.strategy}\0${record.model}`);
  return [...groups.values()].map((group) => {
    const first = group[0];
    if (first === undefined) throw new Error('empty group');
    const finished = group.filter((record) => record.implement !== undefined);
    const counts: Record<Category, number> = { A: 0, B: 0, C: 0, D: 0 };
    for (const record of finished) if (record.implement) counts[record.implement.category] += 1;
    const percent = Object.fromEntries(
      categories.map((category) => [
        category,
        finished.length === 0 ? 0 : (100 * counts[category]) / finished.length,
      ]),
    ) as Record<Category, number>;
    const shared = groupRuns(group);
    const human = humanMinutes[first.item] ?? null;
    const wall = shared.wallTimeMs.mean;
    return {
      item: first.item,
      strategy: first.strategy,
      model: first.model,
      ...shared,
      counts,
      percent,
      metric: spreadOf(finished.map((record) => record.implement?.metric ?? null)),
      improvement: spreadOf(finished.map((record) => record.implement?.improvement ?? null)),
      linesEdited: spreadOf(
        finished.map((record) =>
          record.implement === undefined
            ? null
            : record.implement.linesAdded + record.implement.linesRemoved,
        ),
      ),
      humanMinutes: human,
      timeSaving: human === null || wall === null ? null : 1 - wall / (human * 60_000),
    };
  });
}

export function paperGroups(records: RunRecord[]): PaperGroup[] {
  const papers = records.filter((record) => record.kind === 'paper');
  const groups = byKey(papers, (record) => `${record.item}\0${record.model}`);
  return [...groups.values()].map((group) => {
    const first = group[0];
    if (first === undefined) throw new Error('empty group');
    const verify = Object.fromEntries(verifyLabels.map((label) => [label, 0])) as Record<
      VerifyOutcomeLabel,
      number
    >;
    for (const record of group) if (record.paper) verify[record.paper.verify] += 1;
    return {
      item: first.item,
      model: first.model,
      ...groupRuns(group),
      verify,
      repairLineShare: spreadOf(group.map((record) => record.paper?.repairLineShare ?? null)),
      lines: spreadOf(
        group.map((record) => (record.paper === undefined ? null : record.paper.lines)),
      ),
      judgeScore: spreadOf(group.map((record) => record.judge?.score ?? null)),
      judgeReferenceScore: spreadOf(group.map((record) => record.judge?.reference?.score ?? null)),
      rubricScore: spreadOf(group.map((record) => record.rubric?.score ?? null)),
    };
  });
}

export interface ExploreGroup extends GroupRuns {
  item: string;
  model: string;
  /** Over the finished runs (each a trial); the review means are each run's mean over its ideas. */
  ideas: Spread;
  reviewOverall: Spread;
  reviewProblem: Spread;
  reviewMethod: Spread;
  reviewExperimentPlan: Spread;
  /** The reviewers' agreement (share of criteria within one point), each run's mean over its ideas. */
  reviewAgreement: Spread;
  /** The judge's verdicts on the experiments' hypotheses, summed over the runs. */
  hypotheses: Record<string, number>;
  /** Plan steps left out of the experiments (the prototype could not run them), summed. */
  notRunSteps: number;
  /** Novelty verdicts summed over the runs' ideas (each check counts: offline and online). */
  novelty: Record<string, number>;
  experimentsChosen: number;
  experimentsRan: number;
  experimentsImproved: number;
  ranShare: Spread;
  improvedShare: Spread;
  margin: number | null;
}

export function exploreGroups(records: RunRecord[]): ExploreGroup[] {
  const explorations = records.filter((record) => record.kind === 'explore');
  const groups = byKey(explorations, (record) => `${record.item}\0${record.model}`);
  return [...groups.values()].map((group) => {
    const first = group[0];
    if (first === undefined) throw new Error('empty group');
    const finished = group.flatMap((record) =>
      isFinished(record) && record.explore ? [record.explore] : [],
    );
    const novelty: Record<string, number> = Object.fromEntries(
      noveltyVerdicts.map((verdict) => [verdict, 0]),
    );
    for (const figures of finished) {
      for (const verdict of noveltyVerdicts)
        novelty[verdict] = (novelty[verdict] ?? 0) + figures.novelty[verdict];
    }
    const sum = (pick: (figures: (typeof finished)[number]) => number) =>
      finished.reduce((total, figures) => total + pick(figures), 0);
    return {
      item: first.item,
      model: first.model,
      ...groupRuns(group),
      ideas: spreadOf(finished.map((figures) => figures.ideas)),
      reviewOverall: spreadOf(finished.map((figures) => figures.review.overall)),
      reviewProblem: spreadOf(finished.map((figures) => figures.review.problem)),
      reviewMethod: spreadOf(finished.map((figures) => figures.review.method)),
      reviewExperimentPlan: spreadOf(finished.map((figures) => figures.review.experimentPlan)),
      reviewAgreement: spreadOf(finished.map((figures) => figures.reviewAgreement)),
      hypotheses: Object.fromEntries(
        hypothesisVerdicts.map((verdict) => [
          verdict,
          sum((figures) => figures.hypotheses[verdict]),
        ]),
      ),
      notRunSteps: sum((figures) => figures.notRunSteps),
      novelty,
      experimentsChosen: sum((figures) => figures.experiments.chosen),
      experimentsRan: sum((figures) => figures.experiments.ran),
      experimentsImproved: sum((figures) => figures.experiments.improved),
      ranShare: spreadOf(finished.map((figures) => figures.ranShare)),
      improvedShare: spreadOf(finished.map((figures) => figures.improvedShare)),
      margin: group.find((record) => record.explore)?.explore?.margin ?? null,
    };
  });
}

/** Categories per strategy × model over every task: the paper's headline comparison. */
export interface Comparison {
  strategy: string;
  model: string;
  finished: number;
  counts: Record<Category, number>;
  percent: Record<Category, number>;
  costUsd: Spread;
  wallTimeMs: Spread;
}

export function comparisons(records: RunRecord[]): Comparison[] {
  const tasks = records.filter((record) => record.implement !== undefined);
  const groups = byKey(tasks, (record) => `${record.strategy}\0${record.model}`);
  return [...groups.values()].map((group) => {
    const first = group[0];
    if (first === undefined) throw new Error('empty group');
    const counts: Record<Category, number> = { A: 0, B: 0, C: 0, D: 0 };
    for (const record of group) if (record.implement) counts[record.implement.category] += 1;
    return {
      strategy: first.strategy,
      model: first.model,
      finished: group.length,
      counts,
      percent: Object.fromEntries(
        categories.map((category) => [category, (100 * counts[category]) / group.length]),
      ) as Record<Category, number>,
      costUsd: spreadOf(group.map((record) => record.costUsd)),
      wallTimeMs: spreadOf(group.map((record) => record.wallTimeMs)),
    };
  });
}

export type NoiseByItem = Record<string, StarterNoise>;
