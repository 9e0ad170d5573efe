import type { EvalSummary } from '../collection/collect-evaluation.js';
import {
  type Block,
  heading,
  type Inline,
  links,
  paragraph,
  table,
  text,
} from './report-blocks.js';
import { formatNumber, formatSpread, runLink } from './report-format.js';
import {
  type ExploreIdeaRow,
  hypothesisVerdicts,
  noveltyVerdicts,
} from '../collection/read-explore.js';
import type { RunRecord } from '../collection/run-record.js';
import type { Spread } from '../collection/spread.js';

const share = (value: Spread): string =>
  value.mean === null ? '–' : `${formatSpread(value, 100, 1)} %`;

const signed = (value: number): string => `${value >= 0 ? '+' : ''}${formatNumber(value)}`;

/** Explore mode: the ideas of each exploration, their reviews, novelty and experiments. */
export function exploreBlocks(summary: EvalSummary): Block[] {
  if (summary.explore.length === 0) return [];
  return [
    heading(2, 'Explore: ideas, reviews and experiments'),
    paragraph(
      "Per paper and model, over the trials (mean ± spread): the ideas each exploration wrote; the judge's review scores (1–5) of each idea's last round, averaged over the run's ideas, overall and per criterion group (problem, method, experiment plan); the reviewers' agreement (the share of criteria on which they were within one point); the novelty verdicts of every check; the judge's verdicts on the experiments' hypotheses (supported / refuted / inconclusive, by each idea's stop criteria against the paired effects); the plan steps left out because the prototype could not run them; and of the run's ideas, the share whose experiment's final script ran and printed its metric, and the share that beat its baseline by more than the margin. Every figure is read from the runs' ideas.json and experiments.json.",
    ),
    table(
      [
        'paper',
        'model',
        'runs',
        'ideas per run',
        'review',
        'problem',
        'method',
        'experiment plan',
        'reviewers within one',
        ...noveltyVerdicts,
        'hypotheses (supported / refuted / inconclusive)',
        'steps not run',
        'experiments (chosen / ran / improved)',
        'ran',
        'improved',
        'margin',
        'run folders',
      ],
      summary.explore.map((group) => [
        text(group.item),
        text(group.model),
        text(group.runs.length - group.missing - group.failed),
        text(formatSpread(group.ideas, 1, 2)),
        text(formatSpread(group.reviewOverall, 1, 2)),
        text(formatSpread(group.reviewProblem, 1, 2)),
        text(formatSpread(group.reviewMethod, 1, 2)),
        text(formatSpread(group.reviewExperimentPlan, 1, 2)),
        text(share(group.reviewAgreement)),
        ...noveltyVerdicts.map((verdict) => text(group.novelty[verdict] ?? 0)),
        text(hypothesisVerdicts.map((verdict) => group.hypotheses[verdict] ?? 0).join(' / ')),
        text(group.notRunSteps),
        text(`${group.experimentsChosen} / ${group.experimentsRan} / ${group.experimentsImproved}`),
        text(share(group.ranShare)),
        text(share(group.improvedShare)),
        text(group.margin === null ? '–' : formatNumber(group.margin)),
        links(summary, group.runs),
      ]),
    ),
    ...summary.runs.flatMap((run) => exploreRunBlocks(summary, run)),
  ];
}

/** One exploration: what it wrote, and a row per idea. */
function exploreRunBlocks(summary: EvalSummary, run: RunRecord): Block[] {
  const figures = run.explore;
  if (figures === undefined || run.runDir === null) return [];
  const folder = run.runDir;
  const status: Inline[] = [
    { text: 'run folder', href: runLink(summary.evalDir, folder) },
    `: ${run.status}; ${figures.ideasWritten ? `${figures.ideas} ideas` : 'no ideas.json (the run ended before its ideas were written)'}`,
    figures.experiments.requested
      ? figures.experiments.written
        ? `; ${figures.experiments.chosen} experiments, ${figures.experiments.ran} ran, ${figures.experiments.improved} improved, ${figures.experiments.failed} failed, ${figures.experiments.skipped} skipped.`
        : '; no experiments.json.'
      : '.',
    ...figures.problems.map((problem): Inline => ` Unreadable: ${problem}.`),
  ];
  const blocks = [heading(3, run.key), paragraph(...status)];
  if (figures.ideaList.length === 0) return blocks;
  return [
    ...blocks,
    table(
      [
        'idea',
        'title',
        'review',
        'problem',
        'method',
        'experiment plan',
        'reviewers within one',
        'novelty',
        'experiment',
        'hypothesis',
        'steps not run',
        'metric',
        'baseline',
        'improvement',
        'run',
      ],
      figures.ideaList.map((idea) => ideaRow(summary, idea)),
    ),
  ];
}

/** An idea's reviews, novelty and experiment, linking to the experiment's run. */
function ideaRow(summary: EvalSummary, idea: ExploreIdeaRow): Inline[][] {
  const experiment = idea.experiment;
  const score = (value: number | null) => text(value === null ? '–' : formatNumber(value, 2));
  return [
    text(idea.id),
    text(idea.title),
    score(idea.review.overall),
    score(idea.review.problem),
    score(idea.review.method),
    score(idea.review.experimentPlan),
    text(idea.agreement === null ? '–' : `${Math.round(idea.agreement * 100)} %`),
    text(idea.novelty.join(' / ') || '–'),
    text(
      experiment === undefined
        ? 'not chosen'
        : `${experiment.status}${experiment.ran ? '' : ' (did not run)'}${experiment.improved ? ', improved' : ''}`,
    ),
    text(experiment?.hypothesis ?? '–'),
    text(experiment === undefined ? '–' : experiment.notRun),
    text(
      experiment?.value === undefined || experiment.value === null
        ? '–'
        : `${experiment.metricName ?? 'metric'} ${formatNumber(experiment.value)}`,
    ),
    text(
      experiment?.baseline === undefined || experiment.baseline === null
        ? '–'
        : formatNumber(experiment.baseline),
    ),
    text(
      experiment?.improvement === undefined || experiment.improvement === null
        ? '–'
        : signed(experiment.improvement),
    ),
    experiment?.runDir === undefined || experiment.runDir === null
      ? text('–')
      : [{ text: 'run', href: runLink(summary.evalDir, experiment.runDir) }],
  ];
}
