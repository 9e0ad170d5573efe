import { describe, expect, it } from 'vitest';
import { averageReviews, type AveragedReview } from '../../src/explore/review.js';
import { reviewSpreadText } from '../../web/src/model/review-spread.js';
import { review } from '../explore/explore-fixtures.js';

describe("the idea card's reviewers' spread", () => {
  it('shows the share within one point, the disputed criteria with their scores and the meta-review', () => {
    const averaged = averageReviews([
      review(4),
      review(4, (aspect, name) => (aspect === 'experimentPlan' && name === 'robustness' ? 1 : 4)),
      review(3),
    ]);
    const withMeta: AveragedReview = {
      ...averaged,
      models: ['openai:a', 'anthropic:b', 'openai:a'],
      failed: [{ reviewer: 4, model: 'anthropic:b', reason: 'no JSON' }],
      meta: {
        model: 'openai:a',
        overall: 3.6,
        aspects: averaged.aspects as never,
        summary: 'Robustness is the weak point.',
      },
    };
    const text = reviewSpreadText(withMeta);
    expect(text.agreement).toBe(
      "Reviewers' spread: 93% of criteria within one point across 3 reviewers (mean range 1.13, largest 3; overall means span 1.00) · openai:a, anthropic:b",
    );
    expect(text.disputed).toEqual(['Experiment plan: robustness (4, 1, 3)']);
    expect(text.failed).toEqual(['Reviewer 4 (anthropic:b) gave no valid review.']);
    expect(text.meta).toBe('Meta-review 3.60: Robustness is the weak point.');
  });

  it('an older run or one reviewer: no spread, no meta-review', () => {
    const older = averageReviews([review(4), review(3)]);
    // Runs before the reviews part kept no agreement.
    delete older.agreement;
    expect(reviewSpreadText(older)).toEqual({ disputed: [], failed: [] });
    expect(reviewSpreadText(averageReviews([review(4)])).agreement).toBeUndefined();
  });
});
