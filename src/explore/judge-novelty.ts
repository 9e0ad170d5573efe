import { z } from 'zod';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../repo/structured-answer.js';
import { renderCard } from './ideas.js';
import { checkCitations, titleMatches } from './literature/check-citations.js';
import { literatureQuery, type SearchResult } from './literature/search-literature.js';
import { similarities, type ComparedWork, type NoveltyCheck } from './novelty.js';
import type { IdeaCard } from './schemas.js';

export const noveltyAnswerSchema = z
  .object({
    verdict: z.enum(['novel', 'overlaps', 'unknown']),
    work: z
      .string()
      .trim()
      .regex(/^W\d+$/, 'a work id as listed, e.g. W3')
      .optional(),
    difference: z.string().trim().min(1).optional(),
    reason: z.string().trim().min(1),
    nextQuery: z.string().trim().min(1).max(200).optional(),
  })
  .refine((answer) => answer.verdict !== 'overlaps' || answer.work !== undefined, {
    message: 'an "overlaps" verdict names the work it overlaps in "work"',
    path: ['work'],
  })
  .refine((answer) => answer.verdict !== 'overlaps' || answer.difference !== undefined, {
    message: 'an "overlaps" verdict says what the idea adds in "difference"',
    path: ['difference'],
  });
export type NoveltyAnswer = z.infer<typeof noveltyAnswerSchema>;

/** Search rounds: the idea's own query, then the judge's next queries. */
export const noveltyRounds = 3;

/** A work in the pool, with where it came from (the judge reads it). */
interface PooledWork extends ComparedWork {
  origin: string;
}

export interface JudgeNoveltyInput {
  card: IdeaCard;
  /** The service's name, the check's `against`. */
  service: string;
  /** The input papers and related items, with abstracts. */
  given: readonly PooledWork[];
  /** The input papers' reference lists: titles only, looked up for abstracts. */
  references: readonly ComparedWork[];
  keywords: readonly string[];
  search: (query: string) => Promise<SearchResult>;
  minWorks: number;
  label: string;
  /** Works shown to the judge each round (default the larger of minWorks and 10). */
  shown?: number;
  maxAttempts?: number;
}

/** Works a list's references are looked up for: the ones whose titles are closest to the idea. */
const referencesLookedUp = 3;
const abstractChars = 1200;

const sameTitle = (first: string, second: string) =>
  first.toLowerCase().replace(/\W+/g, ' ').trim() ===
  second.toLowerCase().replace(/\W+/g, ' ').trim();

/**
 * The input papers' references closest to the idea, looked up in the service for their
 * abstracts (a reference list gives titles only).
 */
async function citedReferences(
  card: JudgeNoveltyInput['card'],
  input: JudgeNoveltyInput,
): Promise<{ work: ComparedWork; origin: string }[]> {
  const referenceScores = similarities(
    card,
    input.references.map((reference) => ({ ...reference, text: reference.title })),
  );
  const closest = input.references
    .map((reference, index) => ({ reference, score: referenceScores[index] ?? 0 }))
    .filter((entry) => entry.score > 0)
    .sort((first, second) => second.score - first.score)
    .slice(0, referencesLookedUp);
  const found: { work: ComparedWork; origin: string }[] = [];
  for (const { reference } of closest) {
    const answer = await input.search(reference.title);
    if (!answer.ok) continue;
    const match = answer.works.find((work) => titleMatches(reference.title, work.title));
    if (match !== undefined)
      found.push({
        work: match,
        origin: `cited by ${reference.source.split(' ')[0] ?? 'a paper'}`,
      });
  }
  return found;
}

/** One round of the judge: the idea and the closest works, its verdict checked. */
async function askRound(
  models: ModelCaller,
  input: JudgeNoveltyInput,
  round: {
    round: number;
    queries: readonly string[];
    shown: readonly { work: PooledWork; index: number }[];
    ids: ReadonlySet<string>;
  },
): Promise<NoveltyAnswer> {
  const { ids } = round;
  const { value } = await askStructured(
    models,
    {
      role: 'judge',
      messages: [
        {
          role: 'user',
          content: loadPrompt('explore-novelty', {
            round: String(round.round),
            rounds: String(noveltyRounds),
            queries: round.queries.map((asked) => `"${asked}"`).join(', '),
            idea: renderCard(input.card),
            works: round.shown
              .map(
                ({ work, index }) =>
                  `[W${index + 1}] ${work.title} (${work.origin}; ${work.source})\n${work.text.slice(0, abstractChars)}`,
              )
              .join('\n\n'),
          }),
        },
      ],
      label: `${input.label} novelty round ${round.round}`,
      expect: 'One ```json block: verdict, work and difference (overlaps), reason, nextQuery.',
    },
    noveltyAnswerSchema,
    {
      check: (value) =>
        value.work === undefined || ids.has(value.work)
          ? undefined
          : `${value.work} is not one of the works listed (${[...ids].join(', ')})`,
      ...(input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts }),
    },
  );
  return value;
}

/**
 * The judge compares an idea with the closest works' abstracts over a few search rounds:
 * the given papers and related work, the works the card cites and the input papers'
 * references (looked up in the service), and each round's search results. `overlaps` names
 * the work and the difference; `novel` stands only when at least `minWorks` works were shown
 * to the judge, else it is `unknown`.
 */
export async function judgeNovelty(
  models: ModelCaller,
  input: JudgeNoveltyInput,
): Promise<NoveltyCheck> {
  const { card, service } = input;
  const pool: PooledWork[] = [...input.given];
  const add = (works: readonly ComparedWork[], origin: string) => {
    for (const work of works) {
      if (work.text.trim() === '' || pool.some((known) => sameTitle(known.title, work.title)))
        continue;
      pool.push({ ...work, origin });
    }
  };

  const citations = await checkCitations(card, [...input.given, ...input.references], input.search);
  add(citations.found, 'cited by the idea');
  for (const match of await citedReferences(card, input)) add([match.work], match.origin);

  const queries: string[] = [];
  const shownIds = new Set<number>();
  const shownCount = input.shown ?? Math.max(input.minWorks, 10);
  let query: string | undefined = literatureQuery(card, input.keywords);
  let answer: NoveltyAnswer | undefined;
  let searchFailure: string | undefined;
  for (let round = 1; round <= noveltyRounds && query !== undefined; round += 1) {
    queries.push(query);
    const found = await input.search(query);
    if (!found.ok) {
      searchFailure = found.reason;
      break;
    }
    add(found.works, `search "${query}"`);
    const scores = similarities(card, pool);
    const shown = pool
      .map((work, index) => ({ work, index, score: scores[index] ?? 0 }))
      .sort((first, second) => second.score - first.score)
      .slice(0, shownCount);
    for (const entry of shown) shownIds.add(entry.index);
    const ids = new Set(shown.map((entry) => `W${entry.index + 1}`));
    answer = await askRound(models, input, { round, queries, shown, ids });
    const settled =
      answer.verdict === 'overlaps' ||
      (answer.verdict === 'novel' && shownIds.size >= input.minWorks);
    const next = answer.nextQuery;
    query = settled || next === undefined || queries.includes(next) ? undefined : next;
  }
  return verdictOf(card, pool, answer, {
    service,
    compared: shownIds.size,
    minWorks: input.minWorks,
    queries,
    citations: citations.checks,
    ...(searchFailure === undefined ? {} : { searchFailure }),
  });
}

function verdictOf(
  card: IdeaCard,
  pool: readonly PooledWork[],
  answer: NoveltyAnswer | undefined,
  facts: {
    service: string;
    compared: number;
    minWorks: number;
    queries: string[];
    citations: NoveltyCheck['citations'];
    searchFailure?: string;
  },
): NoveltyCheck {
  const base = {
    against: facts.service,
    compared: facts.compared,
    queries: facts.queries,
    ...(facts.citations === undefined ? {} : { citations: facts.citations }),
  };
  if (answer === undefined) {
    return {
      ...base,
      verdict: 'unknown',
      reason: facts.searchFailure ?? 'the judge was not asked: no search was made',
    };
  }
  const named = answer.work === undefined ? undefined : pool[Number(answer.work.slice(1)) - 1];
  const closest =
    named === undefined
      ? undefined
      : {
          title: named.title,
          source: named.source,
          similarity: similarities(card, [named])[0] ?? 0,
        };
  const stopped =
    facts.searchFailure === undefined ? '' : ` (the last search failed: ${facts.searchFailure})`;
  if (answer.verdict === 'overlaps' && closest !== undefined) {
    return {
      ...base,
      verdict: 'overlaps',
      closest,
      ...(answer.difference === undefined ? {} : { difference: answer.difference }),
      reason: answer.reason,
    };
  }
  if (answer.verdict === 'novel' && facts.compared < facts.minWorks) {
    return {
      ...base,
      verdict: 'unknown',
      reason: `the judge found no overlap in ${facts.compared} works, fewer than the ${facts.minWorks} a novelty verdict needs${stopped}: ${answer.reason}`,
    };
  }
  return {
    ...base,
    verdict: answer.verdict,
    ...(closest === undefined ? {} : { closest }),
    reason: `${answer.reason}${stopped}`,
  };
}
