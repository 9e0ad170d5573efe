import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exploration } from '../../src/explore/exploration.js';
import { judgeNovelty } from '../../src/explore/judge-novelty.js';
import { searchWorks } from '../../src/explore/literature/search-literature.js';
import { compareIdea } from '../../src/explore/novelty.js';
import { runExplore, type ExploreSettings } from '../../src/explore/run-explore.js';
import { createScriptedCaller, type ScriptedRequest } from '../../src/llm/scripted-model.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { Run } from '../../src/runs/run.js';
import { analysisAnswer, ideaCard, json, mixupPaper, review } from './explore-fixtures.js';
import { fakeOpenAlex, fillerWorks, type FakeWork } from './fake-openalex.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

const restated: FakeWork = {
  id: 'W900',
  title: 'Same-class mixup pairing for tabular perceptrons',
  abstract:
    'We draw the mixup partner example from the same class when training small tabular perceptrons, and find same-class mixup pairing keeps soft targets sharp.',
};
const mixupOriginal: FakeWork = {
  id: 'W100',
  title: 'mixup: Beyond Empirical Risk Minimization',
  abstract:
    'We propose mixup, which trains a neural network on convex combinations of pairs of examples and their labels.',
};

const restating = ideaCard('Class-aware mixup pairing', {
  method:
    'Mixup whose partner example is drawn from the same class, for small tabular perceptrons.',
  relatedWork: [
    { item: 'Zhang et al. 2018, mixup: Beyond Empirical Risk Minimization', adds: 'pairing' },
  ],
});
const inventedCitation = 'Gaussian Feature Jitter Networks (Doe and Roe, 2031)';
const jitter = ideaCard('Feature noise injection', {
  method: 'Gaussian noise injection on standardized tabular features for small perceptrons.',
  relatedWork: [{ item: inventedCitation, adds: 'noise instead of mixing' }],
});

/** What the fake OpenAlex has: the restated work, the mixup paper, and unrelated studies. */
function literature(search: string): FakeWork[] {
  if (/beyond empirical risk/i.test(search)) return [mixupOriginal, ...fillerWorks('R', 2)];
  if (/class-aware mixup/i.test(search)) return [restated, ...fillerWorks('A', 9)];
  if (/feature noise injection/i.test(search)) return fillerWorks('B', 6);
  if (/gaussian jitter/i.test(search)) return fillerWorks('C', 8);
  // The invented citation: the search finds works, none of them by that title.
  if (/jitter networks/i.test(search)) return fillerWorks('D', 3);
  return [];
}

/** The judge names the restated work by the id the prompt lists it under. */
function overlapsRestated(request: ScriptedRequest): string | Error {
  const prompt = request.messages.map((message) => message.content).join('\n');
  const id = /\[(W\d+)\] Same-class mixup pairing/.exec(prompt)?.[1];
  if (id === undefined) return new Error('the restated work is not in the prompt');
  return json({
    verdict: 'overlaps',
    work: id,
    difference: 'nothing beyond the choice of alpha',
    reason:
      'It draws the mixup partner from the same class for tabular perceptrons, as the idea does.',
  });
}

const settings = (overrides: Partial<ExploreSettings>): ExploreSettings => ({
  paperPaths: [mixupPaper],
  ideas: 2,
  reviewers: 1,
  refineRounds: 0,
  budgetMinutes: 5,
  gpu: false,
  paperMaxChars: 60_000,
  ...overrides,
});

describe('novelty that checks', () => {
  it('names the work an idea restates, flags a citation the service cannot find, says novel only after enough works', async () => {
    const service = await fakeOpenAlex(literature);
    closing.push(service.close);
    const root = mkdtempSync(join(tmpdir(), 'novelty-'));
    let requests: Record<string, ScriptedRequest[]> = {};
    const result = await runExplore({
      settings: settings({
        literature: {
          service: 'openalex',
          baseUrl: service.url,
          cacheDir: join(root, 'cache'),
          baseDelayMs: 1,
        },
      }),
      models: (run: Run) => {
        const scripted = createScriptedCaller(
          {
            planner: [json(analysisAnswer()), json({ ideas: [restating, jitter] })],
            judge: [
              json(review(4)),
              json(review(3)),
              overlapsRestated,
              json({
                verdict: 'unknown',
                reason: 'The works found study other regularizers.',
                nextQuery: 'gaussian jitter tabular perceptron',
              }),
              json({ verdict: 'novel', reason: 'No work adds Gaussian feature noise.' }),
            ],
          },
          { run },
        );
        requests = scripted.requests;
        return scripted.caller;
      },
      host: { runsRoot: root, argv: ['explore'] },
    });

    const saved = JSON.parse(readFileSync(result.ideasJson, 'utf8')) as Exploration;
    expect(saved.settings).toMatchObject({ literature: 'openalex', noveltyMinWorks: 10 });
    const byId = new Map(saved.ideas.map((idea) => [idea.id, idea]));
    const first = byId.get('I1')?.novelty;
    const second = byId.get('I2')?.novelty;

    // The paper alone offline: one document compared, so never `novel`.
    expect(first?.[0]).toMatchObject({ against: 'offline', compared: 1 });
    expect(first?.[0]?.verdict).not.toBe('novel');
    expect(second?.[0]).toMatchObject({ against: 'offline', verdict: 'unknown', compared: 1 });

    // The idea restating a work is `overlaps`, that work named with the difference.
    expect(first?.[1]).toMatchObject({
      against: 'openalex',
      verdict: 'overlaps',
      closest: { title: restated.title, source: 'https://openalex.org/W900' },
      difference: 'nothing beyond the choice of alpha',
    });
    // Its citation is the input paper's own reference [1]; the reference was looked up.
    expect(first?.[1]?.citations).toMatchObject([
      { status: 'given', match: { source: 'P1 reference [1]' } },
    ]);
    expect(service.searches).toContain('mixup: Beyond Empirical Risk Minimization');
    const firstPrompt = requests.judge?.[2]?.messages.at(-1)?.content ?? '';
    expect(firstPrompt).toMatch(
      /\[W\d+\] mixup: Beyond Empirical Risk Minimization \(cited by P1;/,
    );
    expect(firstPrompt).toContain('(input paper P1;');

    // The invented citation is looked up, not found, and flagged.
    expect(service.searches).toContain(inventedCitation);
    expect(second?.[1]?.citations).toEqual([
      expect.objectContaining({ item: inventedCitation, status: 'not-found' }),
    ]);
    // Two rounds: the judge's next search was asked, then novel over at least 10 works.
    expect(second?.[1]?.queries).toEqual([
      'Feature noise injection mixup tabular data regularization',
      'gaussian jitter tabular perceptron',
    ]);
    expect(second?.[1]?.verdict).toBe('novel');
    expect(second?.[1]?.compared).toBeGreaterThanOrEqual(10);
    expect(requests.judge?.[4]?.messages.at(-1)?.content).toContain('round 2 of at most 3');

    const markdown = readFileSync(result.ideasMarkdown, 'utf8');
    expect(markdown).toContain(`**Cited work not found in openalex:** "${inventedCitation}"`);
    expect(markdown).toContain('What the idea adds: nothing beyond the choice of alpha');
    const warnings = readEvents(result.run.dir).events.filter(
      (event) => event.type === 'log' && event.message.includes('cannot find'),
    );
    expect(warnings).toHaveLength(1);
  });

  it('says unknown, never novel, when an idea was compared with a single document', async () => {
    expect(
      compareIdea(
        jitter,
        [{ title: 'Mixup on tabular data', text: 'Mixup helps a little.', source: 'P1' }],
        'offline',
      ),
    ).toMatchObject({ verdict: 'unknown', compared: 1 });
    expect(
      compareIdea(
        jitter,
        fillerWorks('E', 10).map((work) => ({
          title: work.title,
          text: work.abstract,
          source: work.id,
        })),
        'offline',
      ),
    ).toMatchObject({ verdict: 'novel', compared: 10 });

    // The service finds nothing; the judge, shown the one paper, says novel: that is unknown.
    const service = await fakeOpenAlex(() => []);
    closing.push(service.close);
    const scripted = createScriptedCaller({
      judge: [json({ verdict: 'novel', reason: 'The paper does not add feature noise.' })],
    });
    const check = await judgeNovelty(scripted.caller, {
      card: jitter,
      service: 'openalex',
      given: [
        {
          title: 'Mixup on tabular data',
          text: 'We apply mixup to a two-layer perceptron.',
          source: mixupPaper,
          origin: 'input paper P1',
        },
      ],
      references: [],
      keywords: ['mixup'],
      search: (query) =>
        searchWorks(query, {
          service: 'openalex',
          baseUrl: service.url,
          cacheDir: mkdtempSync(join(tmpdir(), 'novelty-cache-')),
        }),
      minWorks: 10,
      label: 'I1',
    });
    expect(check).toMatchObject({ against: 'openalex', verdict: 'unknown', compared: 1 });
    expect(check.reason).toContain('no overlap in 1 works, fewer than the 10');
    // The one cited work was looked up too, and found nothing by its title.
    expect(check.citations).toEqual([expect.objectContaining({ status: 'not-found' })]);
  });

  it('says unknown without asking the judge when the service cannot be reached, and flags no citation', async () => {
    const service = await fakeOpenAlex(() => []);
    await service.close();
    const scripted = createScriptedCaller({ judge: [] });
    const check = await judgeNovelty(scripted.caller, {
      card: jitter,
      service: 'openalex',
      given: [],
      references: [],
      keywords: ['mixup'],
      search: (query) =>
        searchWorks(query, {
          service: 'openalex',
          baseUrl: service.url,
          cacheDir: mkdtempSync(join(tmpdir(), 'novelty-cache-')),
          retries: 0,
        }),
      minWorks: 10,
      label: 'I1',
    });
    expect(check).toMatchObject({ verdict: 'unknown', compared: 0 });
    expect(check.reason).toMatch(/openalex could not be reached after 1 attempts/);
    expect(check.citations).toMatchObject([{ item: inventedCitation, status: 'unchecked' }]);
    expect(scripted.requests.judge).toHaveLength(0);
  });

  it('re-asks an overlaps verdict that names no listed work', async () => {
    const service = await fakeOpenAlex(() => [restated]);
    closing.push(service.close);
    const scripted = createScriptedCaller({
      judge: [
        json({ verdict: 'overlaps', reason: 'It restates a work.', difference: 'none' }),
        json({
          verdict: 'overlaps',
          work: 'W77',
          reason: 'It restates a work.',
          difference: 'none',
        }),
        overlapsRestated,
      ],
    });
    const check = await judgeNovelty(scripted.caller, {
      card: { ...restating, relatedWork: [] },
      service: 'openalex',
      given: [],
      references: [],
      keywords: [],
      search: (query) =>
        searchWorks(query, {
          service: 'openalex',
          baseUrl: service.url,
          cacheDir: mkdtempSync(join(tmpdir(), 'novelty-cache-')),
        }),
      minWorks: 10,
      label: 'I1',
    });
    expect(check).toMatchObject({ verdict: 'overlaps', closest: { title: restated.title } });
    const retries = scripted.requests.judge
      .slice(1)
      .map((request) => request.messages.at(-1)?.content ?? '');
    expect(retries[0]).toContain('names the work it overlaps');
    expect(retries[1]).toContain('W77 is not one of the works listed');
  });
});
