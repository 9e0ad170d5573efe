import type { CitationCheck, ComparedWork } from '../novelty.js';
import { tokenize } from '../similarity.js';
import type { IdeaCard } from '../schemas.js';
import type { SearchResult } from './search-literature.js';

/**
 * Whether a citation as written names a work's title: most of the shorter one's words are
 * in the longer (a citation adds authors and a year, a short title drops a subtitle).
 */
export function titleMatches(citation: string, title: string): boolean {
  const cited = new Set(tokenize(citation));
  const words = new Set(tokenize(title));
  const shared = [...words].filter((word) => cited.has(word)).length;
  const shorter = Math.min(cited.size, words.size);
  return shorter > 0 && shared >= Math.min(2, shorter) && shared / shorter >= 0.6;
}

/**
 * Looks up every work an idea card cites: the input papers and related items given are
 * known; anything else must be found in the literature service, and one it does not have
 * is flagged (`not-found`), since an invented citation makes the card's claim unchecked.
 */
export async function checkCitations(
  card: IdeaCard,
  known: readonly ComparedWork[],
  search: (query: string) => Promise<SearchResult>,
): Promise<{ checks: CitationCheck[]; found: ComparedWork[] }> {
  const checks: CitationCheck[] = [];
  const found: ComparedWork[] = [];
  for (const { item } of card.relatedWork) {
    const given = known.find((work) => titleMatches(item, work.title));
    if (/\bP\d+\b/.test(item) || given !== undefined) {
      checks.push({
        item,
        status: 'given',
        ...(given === undefined ? {} : { match: { title: given.title, source: given.source } }),
      });
      continue;
    }
    const answer = await search(item);
    if (!answer.ok) {
      checks.push({ item, status: 'unchecked', reason: answer.reason });
      continue;
    }
    const match = answer.works.find((work) => titleMatches(item, work.title));
    if (match === undefined) {
      checks.push({
        item,
        status: 'not-found',
        reason: `none of the ${answer.works.length} works found for it has its title`,
      });
      continue;
    }
    found.push(match);
    checks.push({ item, status: 'found', match: { title: match.title, source: match.source } });
  }
  return { checks, found };
}
