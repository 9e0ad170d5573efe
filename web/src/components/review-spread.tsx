import type { AveragedReview } from '../../../src/explore/review.js';
import { labelOf } from '../model/labels.js';

/**
 * How far the independent reviewers agreed, and what the meta-review made of them: the share
 * of criteria within one point, each disputed criterion's scores, the reconciled score.
 */
export function ReviewSpread({ review }: { review: AveragedReview }) {
  const agreement = review.agreement;
  const disputed = (agreement?.disputed ?? []).map((key) => {
    const [aspect = '', criterion = ''] = key.split('.');
    const scores =
      review.aspects[aspect as keyof AveragedReview['aspects']]?.criteria[criterion]?.scores ?? [];
    return { key, label: `${labelOf(aspect)} ${labelOf(criterion)}`, scores };
  });
  return (
    <div className="review-spread">
      {agreement !== undefined ? (
        <p className="review-agreement" data-within-one={agreement.withinOne}>
          Reviewers&apos; spread: {Math.round(agreement.withinOne * 100)}% of criteria within one
          point across {agreement.reviewers} reviewers (mean range {agreement.meanRange.toFixed(2)},
          largest {agreement.maxRange}; overall means span {agreement.overallRange.toFixed(2)})
          {review.models !== undefined ? ` · ${[...new Set(review.models)].join(', ')}` : ''}
        </p>
      ) : null}
      {disputed.length > 0 ? (
        <p className="review-disputed">
          Disputed:{' '}
          {disputed.map((entry) => `${entry.label} (${entry.scores.join(', ')})`).join('; ')}
        </p>
      ) : null}
      {(review.failed ?? []).map((entry) => (
        <p key={entry.reviewer} className="review-failed">
          Reviewer {entry.reviewer} ({entry.model}) gave no valid review.
        </p>
      ))}
      {review.meta !== undefined ? (
        <p className="review-meta">
          Meta-review {review.meta.overall.toFixed(2)}: {review.meta.summary}
        </p>
      ) : null}
    </div>
  );
}
