import { fileURLToPath } from 'node:url';
import type { IdeaCard, Review } from '../../src/explore/schemas.js';
import { reviewCriteria } from '../../src/explore/schemas.js';

export const mixupPaper = fileURLToPath(
  new URL('../../examples/papers/mixup-tabular/paper.md', import.meta.url),
);

export const json = (value: unknown) =>
  `Here it is.\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** An analysis of the mixup paper: quotes copied from it, plus any extra citations given. */
export function analysisAnswer(extraGapQuote?: { section: string; quote: string }) {
  return {
    tasks: [
      {
        statement: 'Regularize a small MLP on tabular data with mixup.',
        citations: [
          {
            paper: 'P1',
            section: 'Abstract',
            quote:
              'We apply mixup to a two-layer perceptron on the breast cancer diagnosis data set',
          },
        ],
      },
    ],
    gaps: [
      {
        statement: 'Differences between methods are within noise on such a small data set.',
        citations: [
          {
            paper: 'P1',
            section: '4 Results',
            quote: 'differences between methods are within about one standard deviation',
          },
          ...(extraGapQuote === undefined ? [] : [{ paper: 'P1', ...extraGapQuote }]),
        ],
      },
      {
        statement: 'A large mixing concentration over-smooths the targets.',
        citations: [
          {
            paper: 'P1',
            section: 'Results',
            quote: 'smooths the targets too much and raises the log-loss',
          },
        ],
      },
    ],
    keywords: ['mixup', 'tabular data', 'regularization'],
  };
}

export function ideaCard(title: string, overrides: Partial<IdeaCard> = {}): IdeaCard {
  return {
    title,
    problem: 'Mixup gains on small tabular data are within one standard deviation.',
    hypothesis: {
      statement: `${title} raises test accuracy over plain mixup on the breast cancer data.`,
      expectedEffect: '+0.5 accuracy points averaged over five seeds',
    },
    rationale: 'Pairs chosen within a class keep the soft targets sharper.',
    method: `${title}: draw the mixing partner from the same class, alpha 0.2.`,
    experimentPlan: {
      dataPreparation: 'load_breast_cancer, stratified 80/20 split, standardized features',
      baselines: ['MLP without mixup', 'MLP with mixup alpha 0.2'],
      metrics: [
        { name: 'accuracy', direction: 'max' },
        { name: 'log-loss', direction: 'min' },
      ],
      // Classified, as explorations with a prototype (`--code`) require.
      procedure: [
        {
          step: 'train each variant for 100 epochs',
          runsOnPrototype: true,
          reason: 'the prototype trains the MLP',
        },
        {
          step: 'evaluate on the test split',
          runsOnPrototype: true,
          reason: 'the prototype prints test accuracy',
        },
      ],
      seeds: [0, 1, 2, 3, 4],
      ablations: ['alpha 1.0'],
      expectedOutcome: 'higher accuracy, equal log-loss',
      stopCriteria: 'stop when five seeds show no gain beyond one standard deviation',
    },
    risks: ['the effect may be below the noise of 114 test rows'],
    relatedWork: [{ item: 'Mixup for Tabular Classification', adds: 'class-aware pairing' }],
    ...overrides,
  };
}

/** A review giving every criterion `score` (or per-criterion scores from `pick`). */
export function review(score: number, pick?: (aspect: string, name: string) => number): Review {
  const aspect = (names: readonly string[], aspectName: string) =>
    Object.fromEntries(
      names.map((name) => [
        name,
        { score: pick?.(aspectName, name) ?? score, reason: `${aspectName}.${name} is ${score}` },
      ]),
    );
  return {
    problem: aspect(reviewCriteria.problem, 'problem'),
    method: aspect(reviewCriteria.method, 'method'),
    experimentPlan: aspect(reviewCriteria.experimentPlan, 'experimentPlan'),
  } as Review;
}

/** The judge's verdict on a hypothesis against its paired seeds (prompts/explore-verdict.md). */
export const verdictAnswer = (
  verdict: 'supported' | 'refuted' | 'inconclusive' = 'inconclusive',
  reason = 'The paired effect is within its margin.',
) => json({ verdict, reason });
