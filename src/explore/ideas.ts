import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../repo/structured-answer.js';
import { notesBlock } from './analysis.js';
import { computeSection, groundedSystem, procedureShape } from './grounding/grounded-prompts.js';
import type { RelatedItem } from './related-work.js';
import { cardSchemaFor, ideaListSchema, type IdeaCard } from './schemas.js';

export function renderRelated(
  papers: readonly { id: string; title: string }[],
  related: readonly RelatedItem[],
): string {
  const lines = [
    ...papers.map((paper) => `- [${paper.id}] ${paper.title} (an input paper)`),
    ...related.map(
      (item) => `- ${item.title}${item.abstract === '' ? '' : `: ${item.abstract.slice(0, 600)}`}`,
    ),
  ];
  return lines.join('\n');
}

/** Stage 2: exactly `count` idea cards; malformed answers are re-asked with the problem. */
export async function generateIdeas(
  models: ModelCaller,
  input: {
    analysis: string;
    related: string;
    notes?: string;
    compute: string;
    count: number;
    /** With `--code`: the prototype summary, after the system prompt; plans must run on it. */
    prototype?: string;
    maxAttempts?: number;
  },
): Promise<IdeaCard[]> {
  const answer = await askStructured(
    models,
    {
      role: 'planner',
      system: groundedSystem(loadPrompt('explore-system'), input.prototype),
      messages: [
        {
          role: 'user',
          content: loadPrompt('explore-ideas', {
            count: String(input.count),
            analysis: input.analysis,
            related: input.related,
            notes: notesBlock(input.notes),
            compute: computeSection(input.compute, input.prototype),
            procedureShape: procedureShape(input.prototype),
          }),
        },
      ],
      label: 'explore-ideas',
      expect: `One \`\`\`json block: {"ideas": [...]} with ${input.count} idea cards.`,
    },
    ideaListSchema(input.count, input.prototype !== undefined),
    input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts },
  );
  return answer.value.ideas;
}

/** An idea card as prompts show it. */
export function renderCard(card: IdeaCard): string {
  return `\`\`\`json\n${JSON.stringify(card, null, 2)}\n\`\`\``;
}

/** Refinement: one idea revised against its averaged reviews, validated like a new card. */
export async function refineIdea(
  models: ModelCaller,
  input: {
    card: IdeaCard;
    reviews: string;
    compute: string;
    label: string;
    prototype?: string;
    maxAttempts?: number;
  },
): Promise<IdeaCard> {
  const answer = await askStructured(
    models,
    {
      role: 'planner',
      system: groundedSystem(loadPrompt('explore-system'), input.prototype),
      messages: [
        {
          role: 'user',
          content: loadPrompt('explore-refine', {
            idea: renderCard(input.card),
            reviews: input.reviews,
            compute: computeSection(input.compute, input.prototype),
          }),
        },
      ],
      label: input.label,
      expect: 'One ```json block: the whole revised idea card.',
    },
    cardSchemaFor(input.prototype !== undefined),
    input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts },
  );
  return answer.value;
}
