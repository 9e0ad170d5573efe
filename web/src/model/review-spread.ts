import type { AveragedReview } from '../../../src/explore/review.js';
import { labelOf } from './labels.js';

/** The reviewers' spread and the meta-review, in the words the idea card shows. */
export interface ReviewSpreadText {
  /** "Reviewers' spread: 80% of criteria within one point across 3 reviewers (…)"; absent for one reviewer. */
  agreement?: string;
  /** Each criterion the reviewers disputed (two points or more apart), with their scores. */
  disputed: string[];
  /** One line per review that gave no valid answer. */
  failed: string[];
  /** "Meta-review 3.87: …"; absent when there was none. */
  meta?: string;
}

/** What the idea card shows of one review round's spread (older runs: agreement absent). */
export function reviewSpreadText(review: AveragedReview): ReviewSpreadText {
  const agreement = review.agreement;
  const models = review.models === undefined ? [] : [...new Set(review.models)];
  const disputed = (agreement?.disputed ?? []).map((key) => {
    const [aspect = '', criterion = ''] = key.split('.');
    const aspects: Partial<AveragedReview['aspects']> = review.aspects;
    const scores = aspects[aspect as keyof AveragedReview['aspects']]?.criteria[criterion]?.scores;
    return `${labelOf(aspect)}: ${labelOf(criterion).toLowerCase()} (${(scores ?? []).join(', ')})`;
  });
  return {
    ...(agreement === undefined
      ? {}
      : {
          agreement: `Reviewers' spread: ${Math.round(agreement.withinOne * 100)}% of criteria within one point across ${agreement.reviewers} reviewers (mean range ${agreement.meanRange.toFixed(2)}, largest ${agreement.maxRange}; overall means span ${agreement.overallRange.toFixed(2)})${models.length === 0 ? '' : ` · ${models.join(', ')}`}`,
        }),
    disputed,
    failed: (review.failed ?? []).map(
      (entry) => `Reviewer ${entry.reviewer} (${entry.model}) gave no valid review.`,
    ),
    ...(review.meta === undefined
      ? {}
      : { meta: `Meta-review ${review.meta.overall.toFixed(2)}: ${review.meta.summary}` }),
  };
}
