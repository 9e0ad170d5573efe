import { tfidfCosine } from './similarity.js';
import type { IdeaCard } from './schemas.js';

/** Something an idea is compared with: a given paper, a related-work item, a search hit. */
export interface ComparedWork {
  title: string;
  text: string;
  /** Where it is: a file, a URL, an id. */
  source: string;
}

export type NoveltyVerdict = 'novel' | 'overlaps' | 'unknown';

/** What became of one work an idea card cites, looked up in the literature service. */
export interface CitationCheck {
  /** The card's `relatedWork` item as written. */
  item: string;
  /**
   * `given`: one of the input papers or related items; `found`: the service has it;
   * `not-found`: the service has nothing by that name (flagged); `unchecked`: the service
   * could not be asked.
   */
  status: 'given' | 'found' | 'not-found' | 'unchecked';
  match?: { title: string; source: string };
  reason?: string;
}

export interface NoveltyCheck {
  /** `offline` (given papers and related work) or the literature service's name. */
  against: string;
  verdict: NoveltyVerdict;
  /** The most similar work, with its TF-IDF cosine similarity to the idea (0–1). */
  closest?: { title: string; source: string; similarity: number };
  compared: number;
  /** Why the verdict is unknown, or what it rests on. */
  reason: string;
  /** `overlaps` by the judge: what the idea adds to the work it overlaps. */
  difference?: string;
  /** The searches the service was asked, one per round. */
  queries?: string[];
  /** The works the idea card cites, looked up in the service. */
  citations?: CitationCheck[];
}

/**
 * Above this cosine similarity an idea reads as a restatement of the work it is compared
 * with. TF-IDF on a handful of documents is coarse, so the line is set high: a verdict of
 * `overlaps` names the work to read, it does not reject the idea.
 */
export const overlapThreshold = 0.5;

/**
 * Works compared below which no check says `novel`: an idea that resembles none of three
 * documents has not been shown to be new, only to differ from those three.
 */
export const defaultNoveltyMinWorks = 10;

/** The text of an idea that says what it is: title, problem, hypothesis and method. */
export function ideaText(card: IdeaCard): string {
  return [card.title, card.problem, card.hypothesis.statement, card.method].join('\n');
}

/** Each work's TF-IDF cosine similarity to the idea, rounded to 3 places, in the works' order. */
export function similarities(card: IdeaCard, works: readonly ComparedWork[]): number[] {
  if (works.length === 0) return [];
  return tfidfCosine(
    ideaText(card),
    works.map((work) => `${work.title}\n${work.text}`),
  ).map((similarity) => Math.round(similarity * 1000) / 1000);
}

/**
 * Compares an idea with a list of works by TF-IDF cosine and names the closest: `overlaps`
 * at or above the threshold, `novel` below it only when at least `minWorks` works were
 * compared, `unknown` otherwise.
 */
export function compareIdea(
  card: IdeaCard,
  works: readonly ComparedWork[],
  against: string,
  minWorks: number = defaultNoveltyMinWorks,
): NoveltyCheck {
  const scores = similarities(card, works);
  let best = 0;
  scores.forEach((similarity, index) => {
    if (similarity > (scores[best] ?? 0)) best = index;
  });
  const work = works[best];
  if (work === undefined) {
    return { against, verdict: 'unknown', compared: 0, reason: 'nothing to compare with' };
  }
  const similarity = scores[best] ?? 0;
  const closest = { title: work.title, source: work.source, similarity };
  if (similarity >= overlapThreshold) {
    return {
      against,
      verdict: 'overlaps',
      closest,
      compared: works.length,
      reason: `similarity ${similarity} to "${work.title}" is at or above ${overlapThreshold}`,
    };
  }
  const below = `the closest of ${works.length} works, "${work.title}", has similarity ${similarity} (below ${overlapThreshold})`;
  if (works.length < minWorks) {
    // The closest work is named beside the reason, so the reason says only why.
    return {
      against,
      verdict: 'unknown',
      closest,
      compared: works.length,
      reason: `none of the ${works.length} works compared reaches similarity ${overlapThreshold}, but ${works.length} are fewer than the ${minWorks} a novelty verdict needs`,
    };
  }
  return { against, verdict: 'novel', closest, compared: works.length, reason: below };
}
