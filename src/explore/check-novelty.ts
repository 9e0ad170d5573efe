import type { Run } from '../runs/run.js';
import type { ExploredIdea } from './exploration.js';
import type { ExploreSettings } from './explore-settings.js';
import { defaultLiteratureCache } from './explore-settings.js';
import type { FittedPaper } from './ingest-papers.js';
import { checkLiterature } from './literature/search-literature.js';
import { compareIdea, type ComparedWork, type NoveltyCheck } from './novelty.js';
import type { RelatedItem } from './related-work.js';
import type { ReviewedIdea } from './review-ideas.js';
import type { IdeaCard } from './schemas.js';

/**
 * The works an idea is compared with offline: abstracts, like the related items (whole
 * papers would make every idea built on them look like a copy, since it shares their
 * vocabulary).
 */
export function offlineWorks(
  papers: readonly FittedPaper[],
  related: readonly RelatedItem[],
): ComparedWork[] {
  return [
    ...papers.map((paper) => ({ title: paper.title, text: paper.abstract, source: paper.path })),
    ...related.map((item) => ({ title: item.title, text: item.abstract, source: item.source })),
  ];
}

/**
 * Stage `novelty`: each idea against the given papers and related work, and against the
 * literature service when one is set (`unknown` when it cannot tell).
 */
export async function checkNovelty(
  run: Run,
  ideas: readonly ReviewedIdea[],
  works: readonly ComparedWork[],
  settings: Pick<ExploreSettings, 'literature'>,
  keywords: readonly string[],
): Promise<ExploredIdea[]> {
  const checked: ExploredIdea[] = [];
  for (const [index, idea] of ideas.entries()) {
    const checks = [compareIdea(idea.card, works, 'offline')];
    if (settings.literature !== undefined) {
      checks.push(await searchLiterature(run, idea.card, keywords, settings.literature));
    }
    for (const check of checks) {
      run.emit({
        type: 'novelty-check',
        idea: index + 1,
        against: check.against,
        verdict: check.verdict,
        reason: check.reason,
        ...(check.closest === undefined ? {} : { closest: check.closest }),
      });
    }
    checked.push({ ...idea, novelty: checks });
  }
  return checked;
}

function searchLiterature(
  run: Run,
  card: IdeaCard,
  keywords: readonly string[],
  literature: NonNullable<ExploreSettings['literature']>,
): Promise<NoveltyCheck> {
  return checkLiterature(card, keywords, {
    service: literature.service,
    cacheDir: literature.cacheDir ?? defaultLiteratureCache(),
    ...(literature.baseUrl === undefined ? {} : { baseUrl: literature.baseUrl }),
    ...(literature.retries === undefined ? {} : { retries: literature.retries }),
    ...(literature.baseDelayMs === undefined ? {} : { baseDelayMs: literature.baseDelayMs }),
    onRetry: (attempt, delayMs, reason) =>
      run.emit({
        type: 'log',
        level: 'warn',
        message: `${literature.service}: retry ${attempt} in ${delayMs} ms (${reason})`,
      }),
  });
}

/** The novelty stage's line: each idea's verdicts. */
export function describeNovelty(ideas: readonly ExploredIdea[]): string {
  return ideas
    .map((idea) => `${idea.id} ${idea.novelty.map((check) => check.verdict).join('/')}`)
    .join(', ');
}
