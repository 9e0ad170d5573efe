import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../repo/structured-answer.js';
import { reviewCriteria, metaReviewSchema, type Review, type ReviewAspect } from './schemas.js';

/** The meta-reviewer's reconciliation, as ideas.json keeps it. */
export interface ReconciledReview {
  /** The judge model that wrote it. */
  model: string;
  /** The mean of every reconciled criterion score, 1–5. */
  overall: number;
  aspects: Record<
    ReviewAspect,
    { mean: number; criteria: Record<string, { score: number; reason: string }> }
  >;
  summary: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The reviews as the meta-reviewer reads them: reviewer by reviewer, every score and reason. */
export function renderReviewSamples(samples: readonly Review[]): string {
  return samples
    .map((sample, index) => {
      const lines = [`### Reviewer ${index + 1}`];
      for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
        const scores = sample[aspect] as Record<string, { score: number; reason: string }>;
        for (const name of reviewCriteria[aspect]) {
          const entry = scores[name];
          if (entry !== undefined)
            lines.push(`- ${aspect}.${name}: ${entry.score} — ${entry.reason}`);
        }
      }
      return lines.join('\n');
    })
    .join('\n\n');
}

/**
 * The meta-review: the judge (its first model) reads every valid review and reconciles them,
 * criterion by criterion, under the same system prompt the reviewers had.
 */
export async function metaReview(
  models: ModelCaller,
  input: {
    system: string;
    analysis: string;
    idea: string;
    samples: readonly Review[];
    label: string;
  },
): Promise<ReconciledReview> {
  const answer = await askStructured(
    models,
    {
      role: 'judge',
      system: input.system,
      messages: [
        {
          role: 'user',
          content: loadPrompt('explore-meta-review', {
            count: String(input.samples.length),
            analysis: input.analysis,
            idea: input.idea,
            reviews: renderReviewSamples(input.samples),
          }),
        },
      ],
      label: input.label,
      expect:
        'One ```json block: every criterion with a reconciled score 1–5 and a reason, and a summary.',
    },
    metaReviewSchema,
  );
  const aspects = {} as ReconciledReview['aspects'];
  const all: number[] = [];
  for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
    const criteria = answer.value[aspect] as Record<string, { score: number; reason: string }>;
    const scores = reviewCriteria[aspect].flatMap((name) => {
      const entry = criteria[name];
      return entry === undefined ? [] : [entry.score];
    });
    all.push(...scores);
    aspects[aspect] = { mean: round2(mean(scores)), criteria: { ...criteria } };
  }
  return {
    model: answer.answer.model,
    overall: round2(mean(all)),
    aspects,
    summary: answer.value.summary,
  };
}
