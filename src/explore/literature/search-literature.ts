import {
  compareIdea,
  defaultNoveltyMinWorks,
  type ComparedWork,
  type NoveltyCheck,
} from '../novelty.js';
import type { IdeaCard } from '../schemas.js';
import { cachedFetch, type CachedFetchOptions } from './cached-fetch.js';
import { serviceWires, type LiteratureService } from './services.js';

export interface LiteratureOptions {
  service: LiteratureService;
  /** Default: the service's public endpoint. */
  baseUrl?: string;
  cacheDir: string;
  /** Works fetched per search (default 10). */
  limit?: number;
  retries?: number;
  baseDelayMs?: number;
  /** Works compared below which the verdict is `unknown`, never `novel` (default 10). */
  minWorks?: number;
  env?: Record<string, string | undefined>;
  onRetry?: CachedFetchOptions['onRetry'];
}

/** One search's answer: the works found, or why there are none to trust. */
export type SearchResult =
  | { ok: true; works: ComparedWork[]; url: string; cached: boolean }
  | { ok: false; url: string; reason: string; cached?: boolean };

/** The search a service is asked for an idea: its title and the problem's keywords. */
export function literatureQuery(card: IdeaCard, keywords: readonly string[]): string {
  return [card.title, ...keywords.slice(0, 3)].join(' ').replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * Asks the service one search (answers cached on disk). An unreachable service or an answer
 * in the wrong format is a reason, never thrown, so the caller can say `unknown`.
 */
export async function searchWorks(
  query: string,
  options: LiteratureOptions,
): Promise<SearchResult> {
  const wire = serviceWires[options.service];
  const url = wire.searchUrl(options.baseUrl ?? wire.defaultBaseUrl, query, options.limit ?? 10);
  const fetched = await cachedFetch(url, {
    cacheDir: `${options.cacheDir}/${options.service}`,
    headers: wire.headers(options.env ?? process.env),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.baseDelayMs === undefined ? {} : { baseDelayMs: options.baseDelayMs }),
    ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
  });
  if (!fetched.ok) {
    return {
      ok: false,
      url,
      reason: `${options.service} could not be reached after ${fetched.attempts} attempts (${fetched.reason})`,
    };
  }
  try {
    return { ok: true, works: wire.parse(fetched.body), url, cached: fetched.cached };
  } catch (error) {
    return {
      ok: false,
      url,
      cached: fetched.cached,
      reason: `${options.service} answered in an unexpected format: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * Searches a literature service for an idea and compares it with what comes back by TF-IDF.
 * An unreachable service, an answer in the wrong format or an empty search is `unknown`
 * with the reason, never a pass.
 */
export async function checkLiterature(
  card: IdeaCard,
  keywords: readonly string[],
  options: LiteratureOptions,
): Promise<NoveltyCheck & { query: string; url: string; cached?: boolean }> {
  const query = literatureQuery(card, keywords);
  const found = await searchWorks(query, options);
  const base = { against: options.service, query, url: found.url };
  if (!found.ok) {
    return {
      ...base,
      verdict: 'unknown',
      compared: 0,
      ...(found.cached === undefined ? {} : { cached: found.cached }),
      reason: found.reason,
    };
  }
  if (found.works.length === 0) {
    return {
      ...base,
      verdict: 'unknown',
      compared: 0,
      cached: found.cached,
      reason: `${options.service} found nothing for "${query}"; an empty search does not show novelty`,
    };
  }
  return {
    ...compareIdea(card, found.works, options.service, options.minWorks ?? defaultNoveltyMinWorks),
    ...base,
    cached: found.cached,
  };
}
