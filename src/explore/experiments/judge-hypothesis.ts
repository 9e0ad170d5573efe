import { z } from 'zod';
import type { ModelCaller } from '../../llm/types.js';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { askStructured } from '../../repo/structured-answer.js';
import type { IdeaCard } from '../schemas.js';
import type { PairedMetric, PairedResults } from './paired-results.js';

export const hypothesisVerdicts = ['supported', 'refuted', 'inconclusive'] as const;

export const verdictAnswerSchema = z.object({
  verdict: z.enum(hypothesisVerdicts),
  reason: z.string().trim().min(1, 'say what the verdict rests on'),
});

/** The judge's verdict on a hypothesis, by its stop criteria, against the paired effects. */
export interface HypothesisVerdict {
  verdict: (typeof hypothesisVerdicts)[number];
  reason: string;
  /** The stop criteria the verdict was judged by (the idea card's). */
  stopCriteria: string;
}

const figure = (value: number | null) => (value === null ? 'none' : String(value));

/** A metric of the idea's own that the baseline never prints (not the experiment's metric). */
const baselineless = (metric: PairedMetric) =>
  !metric.primary && metric.baseline.every((entry) => entry.value === null);

/**
 * One metric's paired figures in words, as the judge reads them; a metric of the idea's own
 * that the baseline never prints in one short line of the idea's values, since nothing
 * pairs with them.
 */
export function describePaired(metric: PairedMetric): string {
  const name = `${metric.name}${metric.primary ? " (the experiment's metric)" : ''}`;
  if (baselineless(metric)) {
    const values = metric.idea.map((entry) => `${entry.seed}: ${figure(entry.value)}`).join(', ');
    const goal = metric.goal === null ? 'no goal given' : `goal ${metric.goal}`;
    return `- ${metric.name} (${goal}): the idea's script only, the baseline prints none; mean ${figure(metric.ideaMean)}; per seed ${values}.`;
  }
  const goal = metric.goal === null ? 'no goal given: plain difference' : `goal ${metric.goal}`;
  const perSeed = metric.idea
    .map((entry) => {
      const base = metric.baseline.find((other) => other.seed === entry.seed)?.value ?? null;
      return `seed ${entry.seed}: ${figure(entry.value)} vs ${figure(base)}`;
    })
    .join('; ');
  const effect =
    metric.effect === null
      ? 'no paired effect (fewer than two seeds where both printed a value)'
      : `paired effect ${metric.effect.effect} ± ${metric.effect.margin} over ${metric.effect.pairs.length} seeds (${metric.effect.beyondMargin ? 'beyond' : 'within'} the margin)`;
  return `- ${name} (${goal}): idea mean ${figure(metric.ideaMean)}, baseline mean ${figure(metric.baselineMean)}; ${effect}. Per seed (idea vs baseline): ${perSeed}.`;
}

/** The seeds that ran, saying so where `--max-seeds` ran fewer than the plan lists. */
function seedsRun(card: IdeaCard, paired: PairedResults): string {
  const planned = card.experimentPlan.seeds.length;
  const ran = paired.seeds.join(', ');
  return paired.seeds.length < planned
    ? `${ran}: the first ${paired.seeds.length} of the ${planned} its plan lists, as many as the exploration allowed`
    : ran;
}

/**
 * The judge role reads the hypothesis, its stop criteria and the paired effects and answers
 * supported / refuted / inconclusive with a reason; an answer that does not fit is re-asked
 * with what was wrong (askStructured).
 */
export async function judgeHypothesis(
  models: ModelCaller,
  input: { card: IdeaCard; paired: PairedResults; label: string; maxAttempts?: number },
): Promise<HypothesisVerdict> {
  const { card, paired } = input;
  const { value } = await askStructured(
    models,
    {
      role: 'judge',
      messages: [
        {
          role: 'user',
          content: loadPrompt('explore-verdict', {
            hypothesis: card.hypothesis.statement,
            expectedEffect: card.hypothesis.expectedEffect,
            stopCriteria: card.experimentPlan.stopCriteria,
            seeds: seedsRun(card, paired),
            // Paired metrics first: the idea-only ones have nothing to compare with.
            measurements: [...paired.metrics]
              .sort((a, b) => Number(baselineless(a)) - Number(baselineless(b)))
              .map(describePaired)
              .join('\n'),
          }),
        },
      ],
      label: `${input.label} verdict`,
      expect: 'One ```json block: verdict (supported, refuted or inconclusive) and reason.',
    },
    verdictAnswerSchema,
    input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts },
  );
  return { ...value, stopCriteria: card.experimentPlan.stopCriteria };
}
