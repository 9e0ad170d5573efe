import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../repo/structured-answer.js';
import { prototypeForReview } from './grounding/grounded-prompts.js';
import { renderCard } from './ideas.js';
import {
  reviewCriteria,
  reviewSchema,
  type IdeaCard,
  type Review,
  type ReviewAspect,
} from './schemas.js';

/** One criterion over every reviewer sample: the mean and each reviewer's reason. */
export interface AveragedCriterion {
  mean: number;
  scores: number[];
  reasons: string[];
}

export interface AveragedReview {
  reviewers: number;
  /** The mean of every criterion's mean. */
  overall: number;
  aspects: Record<ReviewAspect, { mean: number; criteria: Record<string, AveragedCriterion> }>;
  samples: Review[];
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** Averages reviewer samples criterion by criterion. */
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
        reasons: entries.flatMap((entry) => (entry === undefined ? [] : [entry.reason])),
      };
      all.push(mean(scores));
    }
    aspects[aspect] = {
      mean: round2(mean(Object.values(criteria).map((criterion) => criterion.mean))),
      criteria,
    };
  }
  return { reviewers: samples.length, overall: round2(mean(all)), aspects, samples: [...samples] };
}

/**
 * Stage 3: `reviewers` independent reviews by the judge, each validated (every criterion,
 * scores 1–5 as whole numbers; anything else is re-asked with the problem), then averaged.
 */
export async function reviewIdea(
  models: ModelCaller,
  input: {
    card: IdeaCard;
    analysis: string;
    reviewers: number;
    label: string;
    /** With `--code`: the prototype summary, feasibility judged against it. */
    prototype?: string;
    maxAttempts?: number;
  },
): Promise<AveragedReview> {
  const samples: Review[] = [];
  for (let reviewer = 1; reviewer <= input.reviewers; reviewer += 1) {
    const answer = await askStructured(
      models,
      {
        role: 'judge',
        messages: [
          {
            role: 'user',
            content: loadPrompt('explore-review', {
              prototype: prototypeForReview(input.prototype),
              analysis: input.analysis,
              idea: renderCard(input.card),
            }),
          },
        ],
        label: `${input.label} reviewer ${reviewer}`,
        expect: 'One ```json block: every criterion with a score 1–5 and a reason.',
      },
      reviewSchema,
      input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts },
    );
    samples.push(answer.value);
  }
  return averageReviews(samples);
}

/** Reviews as the refinement prompt shows them: each criterion's mean and every reason. */
export function renderReviews(review: AveragedReview): string {
  const lines: string[] = [`Overall mean: ${review.overall} (${review.reviewers} reviewer(s))`];
  for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
    const entry = review.aspects[aspect];
    lines.push(`### ${aspect} (mean ${entry.mean})`);
    for (const [name, criterion] of Object.entries(entry.criteria)) {
      lines.push(`- ${name}: ${criterion.mean} — ${criterion.reasons.join(' / ')}`);
    }
  }
  return lines.join('\n');
}
