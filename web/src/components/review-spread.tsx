import type { AveragedReview } from '../../../src/explore/review.js';
import { reviewSpreadText } from '../model/review-spread.js';

/**
 * How far the independent reviewers agreed, and what the meta-review made of them: the share
 * of criteria within one point, each disputed criterion's scores, the reconciled score.
 */
export function ReviewSpread({ review }: { review: AveragedReview }) {
  const text = reviewSpreadText(review);
  return (
    <div className="review-spread">
      {text.agreement !== undefined ? (
        <p className="review-agreement" data-within-one={review.agreement?.withinOne}>
          {text.agreement}
        </p>
      ) : null}
      {text.disputed.length > 0 ? (
        <p className="review-disputed">Disputed: {text.disputed.join('; ')}</p>
      ) : null}
      {text.failed.map((line) => (
        <p key={line} className="review-failed">
          {line}
        </p>
      ))}
      {text.meta !== undefined ? <p className="review-meta">{text.meta}</p> : null}
    </div>
  );
}
