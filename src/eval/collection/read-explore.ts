import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { hypothesisVerdicts } from '../../explore/experiments/judge-hypothesis.js';
import type { NoveltyVerdict } from '../../explore/novelty.js';
import { ideaCardSchema, reviewCriteria, type ReviewAspect } from '../../explore/schemas.js';

/*
 * ideas.json and experiments.json as this reader needs them. Only the fields read are
 * named; zod drops the rest, so fields the explore pipeline adds later do no harm, and the
 * card's title and the review aspects come from explore's own schemas.
 */
const aspects = Object.keys(reviewCriteria) as ReviewAspect[];
const aspectMean = z.object({ mean: z.number() });
const reviewRead = z.object({
  overall: z.number(),
  // Absent in explorations before reviews were sampled several times.
  agreement: z.object({ withinOne: z.number() }).optional(),
  aspects: z.object(
    Object.fromEntries(aspects.map((aspect) => [aspect, aspectMean])) as Record<
      ReviewAspect,
      typeof aspectMean
    >,
  ),
});
const ideasRead = z.object({
  ideas: z.array(
    z.object({
      id: z.string(),
      card: ideaCardSchema.pick({ title: true }),
      reviews: z.array(reviewRead),
      score: z.number(),
      novelty: z.array(z.object({ against: z.string(), verdict: z.string() })).default([]),
    }),
  ),
});
const experimentsRead = z.array(
  z.object({
    idea: z.string(),
    status: z.string(),
    reason: z.string().optional(),
    runDir: z.string().optional(),
    resultPath: z.string().optional(),
    // The judge's verdict on the hypothesis and the plan steps left out (newer explorations).
    verdict: z.object({ verdict: z.enum(hypothesisVerdicts) }).optional(),
    notRun: z.array(z.unknown()).optional(),
    metric: z
      .object({
        name: z.string(),
        value: z.number().nullable(),
        baseline: z.number().nullable(),
        improvement: z.number().nullable(),
        // Each seed as its own run: the mean and whether it beat the baseline beyond the
        // seeds' own margin (two standard errors); absent in older explorations.
        seeds: z
          .object({
            mean: z.number(),
            improvement: z.number(),
            margin: z.number(),
            beyondMargin: z.boolean(),
          })
          .optional(),
      })
      .optional(),
  }),
);
const resultRead = z.object({ ran: z.boolean() });

export const noveltyVerdicts: readonly NoveltyVerdict[] = ['novel', 'overlaps', 'unknown'];
export { hypothesisVerdicts };
export type HypothesisVerdictName = (typeof hypothesisVerdicts)[number];

/** The review means of one idea (its last round) or of a run (the mean over its ideas). */
export interface ReviewMeans {
  overall: number | null;
  problem: number | null;
  method: number | null;
  experimentPlan: number | null;
}

/** One idea of an exploration, with its experiment's outcome when one was chosen. */
export interface ExploreIdeaRow {
  id: string;
  title: string;
  review: ReviewMeans;
  /** The share of review criteria on which the reviewers were within one point; null with one. */
  agreement: number | null;
  novelty: NoveltyVerdict[];
  experiment?: {
    status: string;
    /** The experiment's final script ran to completion and printed its metric. */
    ran: boolean;
    improved: boolean;
    metricName: string | null;
    value: number | null;
    baseline: number | null;
    improvement: number | null;
    runDir: string | null;
    reason: string;
    /** The judge's verdict on the hypothesis against the paired effects, when it gave one. */
    hypothesis: HypothesisVerdictName | null;
    /** Plan steps the prototype could not run, left out of the experiment. */
    notRun: number;
  };
}

/** An exploration's figures, all read from its run folder. */
export interface ExploreFigures {
  /** False when the run ended (or was killed) before ideas.json was written. */
  ideasWritten: boolean;
  ideas: number;
  review: ReviewMeans;
  /** The mean over the ideas of the reviewers' agreement (criteria within one point). */
  reviewAgreement: number | null;
  novelty: Record<NoveltyVerdict, number>;
  /** The judge's verdicts on the experiments' hypotheses. */
  hypotheses: Record<HypothesisVerdictName, number>;
  /** Plan steps left out of the experiments because the prototype could not run them. */
  notRunSteps: number;
  experiments: {
    /** The suite asked for experiments (run: and code:). */
    requested: boolean;
    /** experiments.json was written. */
    written: boolean;
    chosen: number;
    ran: number;
    improved: number;
    failed: number;
    skipped: number;
  };
  /** Ideas whose experiment ran, over the run's ideas; null without ideas or experiments. */
  ranShare: number | null;
  /** Ideas whose experiment beat its baseline by more than the margin, over the run's ideas. */
  improvedShare: number | null;
  margin: number;
  ideaList: ExploreIdeaRow[];
  /** What could not be read, e.g. a malformed ideas.json. */
  problems: string[];
}

function readJson(path: string): { value?: unknown; problem?: string } {
  if (!existsSync(path)) return {};
  try {
    return { value: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (error) {
    return { problem: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const meanOf = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;

function meansOf(rows: readonly ReviewMeans[]): ReviewMeans {
  const pick = (key: keyof ReviewMeans) =>
    meanOf(rows.flatMap((row) => (row[key] === null ? [] : [row[key]])));
  return {
    overall: pick('overall'),
    problem: pick('problem'),
    method: pick('method'),
    experimentPlan: pick('experimentPlan'),
  };
}

/** Whether an experiment's implement run ran its final script, from its result.json. */
function experimentRan(record: z.infer<typeof experimentsRead>[number], runDir: string): boolean {
  if (record.status !== 'ran') return false;
  const resultPath =
    record.resultPath ??
    (record.runDir === undefined ? undefined : join(record.runDir, 'result.json'));
  const path =
    resultPath === undefined || isAbsolute(resultPath) ? resultPath : join(runDir, resultPath);
  const read = path === undefined ? {} : readJson(path);
  const result = resultRead.safeParse(read.value);
  // Without its result.json, a measured value is the evidence that the script ran.
  const ran = result.success ? result.data.ran : true;
  return ran && record.metric?.value !== undefined && record.metric.value !== null;
}

type IdeaRead = z.infer<typeof ideasRead>['ideas'][number];
type ExperimentRead = z.infer<typeof experimentsRead>[number];

/** A file parsed by its schema; a missing file is undefined, an unreadable one a problem. */
function readParsed<T>(
  file: string,
  schema: z.ZodType<T>,
  problems: string[],
): { written: boolean; value?: T } {
  const read = readJson(file);
  if (read.problem !== undefined) problems.push(read.problem);
  if (read.value === undefined) return { written: false };
  const parsed = schema.safeParse(read.value);
  if (!parsed.success) {
    problems.push(`${file}: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
    return { written: false };
  }
  return { written: true, value: parsed.data };
}

/**
 * Ideas per run, review means (overall and per criterion group), novelty verdicts, and the
 * share of ideas whose experiment ran and improved on its baseline by more than `margin`.
 */
export function readExploreRun(
  runDir: string,
  options: { experiments: boolean; margin: number },
): ExploreFigures {
  const problems: string[] = [];
  const novelty = Object.fromEntries(noveltyVerdicts.map((verdict) => [verdict, 0])) as Record<
    NoveltyVerdict,
    number
  >;
  const readIdeas = readParsed(join(runDir, 'ideas.json'), ideasRead, problems);
  const ideas = readIdeas.value?.ideas ?? [];
  const readExperiments = readParsed(join(runDir, 'experiments.json'), experimentsRead, problems);
  const experiments = readExperiments.value ?? [];
  const counts = { chosen: experiments.length, ran: 0, improved: 0, failed: 0, skipped: 0 };
  const hypotheses = Object.fromEntries(
    hypothesisVerdicts.map((verdict) => [verdict, 0]),
  ) as Record<HypothesisVerdictName, number>;
  let notRunSteps = 0;
  const ideaList = ideas.map((idea) => {
    const row = ideaRow(idea, experiments, runDir, options.margin);
    for (const verdict of row.novelty) novelty[verdict] += 1;
    return row;
  });
  for (const record of experiments) {
    const row = ideaList.find((idea) => idea.id === record.idea)?.experiment;
    if (row?.ran === true) counts.ran += 1;
    if (row?.improved === true) counts.improved += 1;
    if (record.status === 'failed') counts.failed += 1;
    if (record.status === 'skipped') counts.skipped += 1;
    if (record.verdict !== undefined) hypotheses[record.verdict.verdict] += 1;
    notRunSteps += record.notRun?.length ?? 0;
  }
  const shares = options.experiments && ideas.length > 0;
  return {
    ideasWritten: readIdeas.written,
    ideas: ideas.length,
    review: meansOf(ideaList.map((idea) => idea.review)),
    reviewAgreement: meanOf(
      ideaList.flatMap((idea) => (idea.agreement === null ? [] : [idea.agreement])),
    ),
    novelty,
    hypotheses,
    notRunSteps,
    experiments: {
      requested: options.experiments,
      written: readExperiments.written,
      ...counts,
    },
    ranShare: shares ? counts.ran / ideas.length : null,
    improvedShare: shares ? counts.improved / ideas.length : null,
    margin: options.margin,
    ideaList,
    problems,
  };
}

/** One idea: its last round's review means, its novelty verdicts, and its experiment if chosen. */
function ideaRow(
  idea: IdeaRead,
  experiments: ExperimentRead[],
  runDir: string,
  margin: number,
): ExploreIdeaRow {
  const last = idea.reviews.at(-1);
  const verdicts = idea.novelty.flatMap((check) =>
    noveltyVerdicts.includes(check.verdict as NoveltyVerdict)
      ? [check.verdict as NoveltyVerdict]
      : [],
  );
  const row: ExploreIdeaRow = {
    id: idea.id,
    title: idea.card.title,
    review: {
      overall: idea.score,
      problem: last?.aspects.problem.mean ?? null,
      method: last?.aspects.method.mean ?? null,
      experimentPlan: last?.aspects.experimentPlan.mean ?? null,
    },
    agreement: last?.agreement?.withinOne ?? null,
    novelty: verdicts,
  };
  const record = experiments.find((candidate) => candidate.idea === idea.id);
  if (record !== undefined) row.experiment = experimentRow(record, runDir, margin);
  return row;
}

/** Whether an idea's experiment ran and beat its baseline, with its figures. */
function experimentRow(
  record: ExperimentRead,
  runDir: string,
  margin: number,
): NonNullable<ExploreIdeaRow['experiment']> {
  const ran = experimentRan(record, runDir);
  // The seeds' mean, when each seed ran on its own, is the measured figure; improving
  // means beating the baseline beyond the suite's margin and the seeds' spread.
  const seeds = record.metric?.seeds;
  const improvement = seeds?.improvement ?? record.metric?.improvement ?? null;
  const improved =
    ran &&
    improvement !== null &&
    improvement > margin &&
    (seeds === undefined || seeds.beyondMargin);
  return {
    status: record.status,
    ran,
    improved,
    metricName: record.metric?.name ?? null,
    value: seeds?.mean ?? record.metric?.value ?? null,
    baseline: record.metric?.baseline ?? null,
    improvement,
    runDir: record.runDir ?? null,
    reason: record.reason ?? '',
    hypothesis: record.verdict?.verdict ?? null,
    notRun: record.notRun?.length ?? 0,
  };
}
