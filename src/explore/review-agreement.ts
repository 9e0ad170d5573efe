import { reviewCriteria, type Review, type ReviewAspect } from './schemas.js';

/**
 * How far independent reviewers agreed on one idea. Ranges (highest score less lowest) rather
 * than a chance-corrected coefficient: with three reviewers and fifteen criteria on a 1–5
 * scale a kappa or alpha swings on a single score, while a range reads as it is.
 */
export interface ReviewAgreement {
  /** Reviews compared (the valid ones). */
  reviewers: number;
  /** Criteria whose scores span at most one point, as a share of all criteria, 0–1. */
  withinOne: number;
  /** The mean over criteria of each criterion's range; 0 when every reviewer agreed. */
  meanRange: number;
  /** The largest range of any criterion. */
  maxRange: number;
  /** The range of the reviewers' overall means (each reviewer's mean of every criterion). */
  overallRange: number;
  /** Criteria whose scores span two points or more, as `aspect.criterion`. */
  disputed: string[];
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const range = (values: readonly number[]) =>
  values.length === 0 ? 0 : Math.max(...values) - Math.min(...values);
const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** A criterion's score in one review. */
export function scoreOf(review: Review, aspect: ReviewAspect, name: string): number | undefined {
  return (review[aspect] as Record<string, { score: number } | undefined>)[name]?.score;
}

/** Agreement between two or more reviews; undefined for one (nothing to agree with). */
export function reviewAgreement(samples: readonly Review[]): ReviewAgreement | undefined {
  if (samples.length < 2) return undefined;
  const ranges: number[] = [];
  const disputed: string[] = [];
  for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
    for (const name of reviewCriteria[aspect]) {
      const scores = samples.flatMap((sample) => {
        const score = scoreOf(sample, aspect, name);
        return score === undefined ? [] : [score];
      });
      const spread = range(scores);
      ranges.push(spread);
      if (spread >= 2) disputed.push(`${aspect}.${name}`);
    }
  }
  const overalls = samples.map((sample) =>
    mean(
      (Object.keys(reviewCriteria) as ReviewAspect[]).flatMap((aspect) =>
        reviewCriteria[aspect].flatMap((name) => {
          const score = scoreOf(sample, aspect, name);
          return score === undefined ? [] : [score];
        }),
      ),
    ),
  );
  return {
    reviewers: samples.length,
    withinOne: round2(ranges.filter((spread) => spread <= 1).length / ranges.length),
    meanRange: round2(mean(ranges)),
    maxRange: Math.max(0, ...ranges),
    overallRange: round2(range(overalls)),
    disputed,
  };
}

/** One line for people: "agreement 87% of criteria within one point (mean range 0.6)". */
export function describeAgreement(agreement: ReviewAgreement | undefined): string {
  if (agreement === undefined) return 'one reviewer, no agreement to measure';
  const disputed =
    agreement.disputed.length === 0 ? '' : `; disputed: ${agreement.disputed.join(', ')}`;
  return `${Math.round(agreement.withinOne * 100)}% of criteria within one point across ${agreement.reviewers} reviewers (mean range ${agreement.meanRange.toFixed(2)}, largest ${agreement.maxRange}; overall means span ${agreement.overallRange.toFixed(2)})${disputed}`;
}
