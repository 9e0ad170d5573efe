import type { ModelCaller } from '../llm/types.js';
import type { Run } from '../runs/run.js';
import type { ExploredIdea } from './exploration.js';
import type { ExploreSettings } from './explore-settings.js';
import { defaultLiteratureCache } from './explore-settings.js';
import type { FittedPaper } from './ingest-papers.js';
import { judgeNovelty } from './judge-novelty.js';
import { searchWorks, type LiteratureOptions } from './literature/search-literature.js';
import { compareIdea, defaultNoveltyMinWorks, type ComparedWork } from './novelty.js';
import { referenceWorks } from './reference-list.js';
import type { RelatedItem } from './related-work.js';
import type { ReviewedIdea } from './review-ideas.js';

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
 * Stage `novelty`: each idea against the given papers and related work by TF-IDF (offline:
 * `overlaps` or, with fewer than `noveltyMinWorks` works, `unknown`), and, when a literature
 * service is set, by the judge over a few search rounds, with the input papers' reference
 * lists and the works each card cites looked up in the service.
 */
export async function checkNovelty(
  run: Run,
  models: ModelCaller,
  ideas: readonly ReviewedIdea[],
  inputs: { papers: readonly FittedPaper[]; related: readonly RelatedItem[] },
  settings: Pick<ExploreSettings, 'literature' | 'noveltyMinWorks'>,
  keywords: readonly string[],
): Promise<ExploredIdea[]> {
  const minWorks = settings.noveltyMinWorks ?? defaultNoveltyMinWorks;
  const works = offlineWorks(inputs.papers, inputs.related);
  const literature = settings.literature;
  // Reference lists only help where a service can give their abstracts.
  const references = literature === undefined ? [] : await referenceWorks(inputs.papers);
  const checked: ExploredIdea[] = [];
  for (const [index, idea] of ideas.entries()) {
    const checks = [compareIdea(idea.card, works, 'offline', minWorks)];
    if (literature !== undefined) {
      checks.push(
        await judgeNovelty(models, {
          card: idea.card,
          service: literature.service,
          given: givenWorks(inputs.papers, inputs.related),
          references,
          keywords,
          search: (query) => searchWorks(query, literatureOptions(run, literature, minWorks)),
          minWorks,
          label: idea.id,
        }),
      );
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
      for (const citation of check.citations ?? []) {
        if (citation.status !== 'not-found') continue;
        run.emit({
          type: 'log',
          level: 'warn',
          message: `${idea.id} cites "${citation.item}", which ${check.against} cannot find`,
        });
      }
    }
    checked.push({ ...idea, novelty: checks });
  }
  return checked;
}

/** The given papers and related items as the judge reads them, each with where it is from. */
function givenWorks(
  papers: readonly FittedPaper[],
  related: readonly RelatedItem[],
): (ComparedWork & { origin: string })[] {
  return [
    ...papers.map((paper) => ({
      title: paper.title,
      text: paper.abstract,
      source: paper.path,
      origin: `input paper ${paper.id}`,
    })),
    ...related.map((item) => ({
      title: item.title,
      text: item.abstract,
      source: item.source,
      origin: 'related work given',
    })),
  ];
}

function literatureOptions(
  run: Run,
  literature: NonNullable<ExploreSettings['literature']>,
  minWorks: number,
): LiteratureOptions {
  return {
    service: literature.service,
    cacheDir: literature.cacheDir ?? defaultLiteratureCache(),
    minWorks,
    ...(literature.baseUrl === undefined ? {} : { baseUrl: literature.baseUrl }),
    ...(literature.retries === undefined ? {} : { retries: literature.retries }),
    ...(literature.baseDelayMs === undefined ? {} : { baseDelayMs: literature.baseDelayMs }),
    onRetry: (attempt, delayMs, reason) =>
      run.emit({
        type: 'log',
        level: 'warn',
        message: `${literature.service}: retry ${attempt} in ${delayMs} ms (${reason})`,
      }),
  };
}

/** The novelty stage's line: each idea's verdicts. */
export function describeNovelty(ideas: readonly ExploredIdea[]): string {
  return ideas
    .map((idea) => `${idea.id} ${idea.novelty.map((check) => check.verdict).join('/')}`)
    .join(', ');
}
