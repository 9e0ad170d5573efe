import { StructuredAnswerError } from '../llm/structured-answer.js';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../repo/structured-answer.js';
import { groundedJudgeSystem } from './grounding/grounded-prompts.js';
import { renderCard } from './ideas.js';
import { describeAgreement, reviewAgreement, type ReviewAgreement } from './review-agreement.js';
import { metaReview, type ReconciledReview } from './review-meta.js';
import {
  reviewCriteria,
  reviewSchema,
  type IdeaCard,
  type Review,
  type ReviewAspect,
} from './schemas.js';

/** One criterion over every reviewer sample: the mean, its range and each reviewer's reason. */
export interface AveragedCriterion {
  mean: number;
  scores: number[];
  /** Highest score less lowest (0 with one reviewer). */
  range?: number;
  reasons: string[];
}

/** A review whose answer never fitted the schema: kept as an observation, not a crash. */
export interface FailedReview {
  reviewer: number;
  model: string;
  reason: string;
}

export interface AveragedReview {
  /** Valid reviews averaged (failed ones are in `failed`). */
  reviewers: number;
  /** The mean of every criterion's mean over the reviewers. */
  overall: number;
  aspects: Record<ReviewAspect, { mean: number; criteria: Record<string, AveragedCriterion> }>;
  samples: Review[];
  /** The judge model of each sample, in order (older runs: absent). */
  models?: string[];
  /** Reviews that failed to give a valid answer after every re-ask. */
  failed?: FailedReview[];
  /** Between the reviewers, when two or more gave a valid review. */
  agreement?: ReviewAgreement;
  /** The meta-review reconciling two or more reviews; the idea's score when present. */
  meta?: ReconciledReview;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * A sampling temperature for a judge model asked more than once about the same idea, so its
 * reviews are independent samples rather than one answer repeated.
 */
export const repeatedReviewTemperature = 0.7;

/** Averages reviewer samples criterion by criterion, with each criterion's range. */
export function averageReviews(samples: readonly Review[]): AveragedReview {
  const aspects = {} as AveragedReview['aspects'];
  const all: number[] = [];
  for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
    const criteria: Record<string, AveragedCriterion> = {};
    for (const name of reviewCriteria[aspect]) {
      const entries = samples.map(
        (sample) => (sample[aspect] as Record<string, { score: number; reason: string }>)[name],
      );
      const scores = entries.flatMap((entry) => (entry === undefined ? [] : [entry.score]));
      criteria[name] = {
        mean: round2(mean(scores)),
        scores,
        range: scores.length === 0 ? 0 : Math.max(...scores) - Math.min(...scores),
        reasons: entries.flatMap((entry) => (entry === undefined ? [] : [entry.reason])),
      };
      all.push(mean(scores));
    }
    aspects[aspect] = {
      mean: round2(mean(Object.values(criteria).map((criterion) => criterion.mean))),
      criteria,
    };
  }
  const agreement = reviewAgreement(samples);
  return {
    reviewers: samples.length,
    overall: round2(mean(all)),
    aspects,
    samples: [...samples],
    ...(agreement === undefined ? {} : { agreement }),
  };
}

/** A round's score: the meta-review's reconciled mean, else the reviewers' mean. */
export function reviewScore(review: AveragedReview): number {
  return review.meta?.overall ?? review.overall;
}

export interface ReviewInput {
  card: IdeaCard;
  analysis: string;
  reviewers: number;
  label: string;
  /** With `--code`: the prototype summary, after the judge's system prompt; feasibility is judged against it. */
  prototype?: string;
  maxAttempts?: number;
  /** Told of a review that failed (it is kept in `failed`, and the others go on). */
  warn?: (message: string) => void;
}

/** What every call about one idea shares: the system prompt and the rendered card. */
interface ReviewContext {
  system: string;
  idea: string;
}

/** One reviewer's review, or why it failed after every re-ask (other errors propagate). */
async function askReviewer(
  models: ModelCaller,
  input: ReviewInput,
  context: ReviewContext,
  reviewer: { number: number; level: number; sampled: boolean },
): Promise<{ review: Review; model: string } | FailedReview> {
  const label = `${input.label} reviewer ${reviewer.number}`;
  try {
    const answer = await askStructured(
      models,
      {
        role: 'judge',
        level: reviewer.level,
        system: context.system,
        ...(reviewer.sampled ? { temperature: repeatedReviewTemperature } : {}),
        messages: [
          {
            role: 'user',
            content: loadPrompt('explore-review', { analysis: input.analysis, idea: context.idea }),
            // The next reviewer on this model asks the same: its request is read from the cache.
            ...(reviewer.sampled ? { cacheMark: true as const } : {}),
          },
        ],
        label,
        expect: 'One ```json block: every criterion with a score 1–5 and a reason.',
      },
      reviewSchema,
      input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts },
    );
    return { review: answer.value, model: answer.answer.model };
  } catch (error) {
    if (!(error instanceof StructuredAnswerError)) throw error;
    const model = models.spec('judge', reviewer.level);
    input.warn?.(`${label} (${model}) gave no valid review; the others go on: ${error.message}`);
    return { reviewer: reviewer.number, model, reason: error.message };
  }
}

/** The meta-review added to two or more reviews; an unusable one leaves the reviewers' mean. */
async function reconcile(
  models: ModelCaller,
  input: ReviewInput,
  context: ReviewContext,
  averaged: AveragedReview,
): Promise<AveragedReview> {
  if (averaged.samples.length < 2) return averaged;
  try {
    const meta = await metaReview(models, {
      ...context,
      analysis: input.analysis,
      samples: averaged.samples,
      label: `${input.label} meta-review`,
    });
    return { ...averaged, meta };
  } catch (error) {
    if (!(error instanceof StructuredAnswerError)) throw error;
    input.warn?.(
      `${input.label} meta-review gave no valid answer; the reviewers' mean stands: ${error.message}`,
    );
    return averaged;
  }
}

/**
 * Stage 3: `reviewers` independent reviews by the judge under one system prompt (the
 * criteria and their anchors, byte-identical in every call so providers can cache it),
 * spread over the judge's models in turn; each validated (every criterion, scores 1–5 as
 * whole numbers; anything else is re-asked with the problem). A review still invalid after
 * its re-asks is recorded as failed and the others go on. Two or more valid reviews are
 * reconciled by a meta-review.
 */
export async function reviewIdea(models: ModelCaller, input: ReviewInput): Promise<AveragedReview> {
  const context = {
    system: groundedJudgeSystem(loadPrompt('explore-review-system'), input.prototype),
    idea: renderCard(input.card),
  };
  const judgeModels = models.levels('judge');
  const samples: Review[] = [];
  const sampleModels: string[] = [];
  const failed: FailedReview[] = [];
  for (let number = 1; number <= input.reviewers; number += 1) {
    const level = (number - 1) % judgeModels;
    // A judge model that writes more than one of the reviews samples, so they differ.
    const sampled = Math.ceil((input.reviewers - level) / judgeModels) > 1;
    const outcome = await askReviewer(models, input, context, { number, level, sampled });
    if ('reason' in outcome) {
      failed.push(outcome);
    } else {
      samples.push(outcome.review);
      sampleModels.push(outcome.model);
    }
  }
  if (samples.length === 0) {
    throw new StructuredAnswerError(
      `${input.label}: all ${input.reviewers} reviews`,
      failed.map((entry) => entry.reason).join(' | '),
      input.maxAttempts ?? 3,
    );
  }
  return reconcile(models, input, context, {
    ...averageReviews(samples),
    models: sampleModels,
    ...(failed.length === 0 ? {} : { failed }),
  });
}

/** Reviews as the refinement prompt shows them: each criterion's mean, every reason, the meta-review. */
export function renderReviews(review: AveragedReview): string {
  const lines: string[] = [`Overall mean: ${review.overall} (${review.reviewers} reviewer(s))`];
  for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
    const entry = review.aspects[aspect];
    lines.push(`### ${aspect} (mean ${entry.mean})`);
    for (const [name, criterion] of Object.entries(entry.criteria)) {
      lines.push(`- ${name}: ${criterion.mean} — ${criterion.reasons.join(' / ')}`);
    }
  }
  if (review.agreement !== undefined) {
    lines.push(`Agreement: ${describeAgreement(review.agreement)}`);
  }
  if (review.meta !== undefined) {
    lines.push(`### Meta-review (reconciled mean ${review.meta.overall})`, review.meta.summary);
    for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
      for (const [name, criterion] of Object.entries(review.meta.aspects[aspect].criteria)) {
        lines.push(`- ${aspect}.${name}: ${criterion.score} — ${criterion.reason}`);
      }
    }
  }
  return lines.join('\n');
}
