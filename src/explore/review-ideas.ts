import type { ModelCaller } from '../llm/types.js';
import type { Run } from '../runs/run.js';
import type { ExploredIdea } from './exploration.js';
import { refineIdea } from './ideas.js';
import { renderReviews, reviewIdea, reviewScore, type AveragedReview } from './review.js';
import type { IdeaCard } from './schemas.js';

export type ReviewedIdea = Omit<ExploredIdea, 'novelty'>;

export interface ReviewSettings {
  /** The problem analysis the ideas address, as approved at the gate. */
  analysis: string;
  reviewers: number;
  refineRounds: number;
  compute: string;
  /** With `--code`: the prototype summary every review and refinement sees. */
  prototype?: string;
}

/**
 * Stage `review`: each card reviewed by the judge, then refined against its reviews and
 * reviewed again, `refineRounds` times; an idea's score is its last review's meta-review
 * mean (the reviewers' mean when there is no meta-review).
 */
export async function reviewIdeas(
  models: ModelCaller,
  run: Run,
  cards: readonly IdeaCard[],
  settings: ReviewSettings,
): Promise<ReviewedIdea[]> {
  const reviewed: ReviewedIdea[] = [];
  for (const [index, generated] of cards.entries()) {
    reviewed.push(await reviewAndRefine(models, run, generated, index, settings));
  }
  return reviewed;
}

async function reviewAndRefine(
  models: ModelCaller,
  run: Run,
  generated: IdeaCard,
  index: number,
  settings: ReviewSettings,
): Promise<ReviewedIdea> {
  const id = `I${index + 1}`;
  let card = generated;
  const earlierVersions: IdeaCard[] = [];
  const reviews: AveragedReview[] = [];
  const review = async (round: number) => {
    const averaged = await reviewIdea(models, {
      card,
      analysis: settings.analysis,
      reviewers: settings.reviewers,
      label: `explore-review ${id} round ${round}`,
      ...(settings.prototype === undefined ? {} : { prototype: settings.prototype }),
      warn: (message) => run.emit({ type: 'log', level: 'warn', message }),
    });
    run.emit({
      type: 'idea-review',
      idea: index + 1,
      round,
      reviewers: averaged.reviewers,
      average: averaged.overall,
      ...(averaged.meta === undefined ? {} : { meta: averaged.meta.overall }),
      ...(averaged.agreement === undefined ? {} : { withinOne: averaged.agreement.withinOne }),
      ...(averaged.failed === undefined ? {} : { failed: averaged.failed.length }),
    });
    reviews.push(averaged);
    return averaged;
  };
  let last = await review(0);
  for (let round = 1; round <= settings.refineRounds; round += 1) {
    earlierVersions.push(card);
    card = await refineIdea(models, {
      card,
      reviews: renderReviews(last),
      compute: settings.compute,
      label: `explore-refine ${id} round ${round}`,
      ...(settings.prototype === undefined ? {} : { prototype: settings.prototype }),
    });
    last = await review(round);
  }
  return { id, card, earlierVersions, reviews, score: reviewScore(last) };
}

/** The review stage's line: each idea's score and its reviewers' agreement. */
export function describeReviews(ideas: readonly ReviewedIdea[]): string {
  return ideas
    .map((idea) => {
      const agreement = idea.reviews.at(-1)?.agreement;
      return `${idea.id} ${idea.score.toFixed(2)}${agreement === undefined ? '' : ` (${Math.round(agreement.withinOne * 100)}% of criteria within one point)`}`;
    })
    .join(', ');
}
