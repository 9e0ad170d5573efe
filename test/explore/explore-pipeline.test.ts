import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exploration } from '../../src/explore/exploration.js';
import { runExplore, type ExploreSettings } from '../../src/explore/run-explore.js';
import { createScriptedCaller, type ScriptedCaller } from '../../src/llm/scripted-model.js';
import type { RoleName } from '../../src/llm/types.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { Run } from '../../src/runs/run.js';
import { analysisAnswer, ideaCard, json, mixupPaper, review } from './explore-fixtures.js';

const settings = (overrides: Partial<ExploreSettings> = {}): ExploreSettings => ({
  paperPaths: [mixupPaper],
  ideas: 2,
  reviewers: 2,
  refineRounds: 1,
  budgetMinutes: 5,
  gpu: false,
  paperMaxChars: 60_000,
  ...overrides,
});

function scripted(script: Partial<Record<RoleName, (string | Error)[]>>) {
  let built: ScriptedCaller | undefined;
  return {
    models: (run: Run) => {
      built = createScriptedCaller(script, { run });
      return built.caller;
    },
    requests: () => {
      if (built === undefined) throw new Error('the caller was never built');
      return built.requests;
    },
  };
}

const lastUserMessage = (messages: { role: string; content: string }[]) =>
  messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';

describe('codify explore: analysis, ideas, reviews, refinement, novelty', () => {
  it('re-asks malformed cards and out-of-range scores, averages reviewers, flags unverified quotes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-'));
    const related = join(root, 'related.txt');
    writeFileSync(
      related,
      'Feature noise injection for tabular MLPs\nGaussian noise added to standardized tabular features as a regularizer for small perceptrons.\n\nAn unrelated study of protein folding\nAlpha helices and beta sheets.\n',
    );
    const first = ideaCard('Class-aware mixup');
    const second = ideaCard('Feature noise injection', {
      method:
        'Gaussian noise injection on standardized tabular features for small perceptrons as a regularizer.',
      hypothesis: {
        statement: 'Feature noise injection regularizes small tabular perceptrons like mixup.',
        expectedEffect: 'equal accuracy to mixup',
      },
      problem: 'Feature noise injection for tabular perceptrons.',
    });
    const script = scripted({
      planner: [
        json(
          analysisAnswer({
            section: 'Conclusion',
            quote: 'mixup always wins on every tabular data set',
          }),
        ),
        json({ ideas: [{ ...first, hypothesis: { statement: 'x' } }] }),
        json({ ideas: [first, second] }),
        json({ ...first, rationale: 'Refined: same-class partners keep targets sharp.' }),
        json(second),
      ],
      // Each round: two reviews, then the meta-review reconciling them.
      judge: [
        json(review(4)),
        json(review(2, (aspect, name) => (aspect === 'method' && name === 'rigour' ? 6 : 2))),
        json(review(2)),
        json({ ...review(3), summary: 'I1 first version: reviewers split on everything.' }),
        json(review(5)),
        json(review(5)),
        json({ ...review(5), summary: 'I1 refined: both reviewers agree it is strong.' }),
        json(review(3)),
        json(review(3)),
        json({ ...review(3), summary: 'I2: middling.' }),
        json(review(2)),
        json(review(2)),
        json({ ...review(2), summary: 'I2 refined: weak.' }),
      ],
    });
    const result = await runExplore({
      settings: settings({ relatedPath: related }),
      models: script.models,
      host: { runsRoot: root, argv: ['explore'] },
    });

    const requests = script.requests();
    // The malformed card answer is re-asked with the exact problems.
    const cardRetry = lastUserMessage(requests.planner[2]?.messages ?? []);
    expect(cardRetry).toContain('Your answer could not be used');
    expect(cardRetry).toContain('ideas: give exactly 2 ideas');
    expect(cardRetry).toContain('ideas.0.hypothesis.expectedEffect');
    // The out-of-range score is re-asked naming the criterion and the range.
    const scoreRetry = lastUserMessage(requests.judge[2]?.messages ?? []);
    expect(scoreRetry).toContain('method.rigour');
    expect(scoreRetry).toContain('scores run from 1 to 5');
    expect(requests.judge).toHaveLength(13);
    // The refinement prompt carries the averaged review and its reasons.
    expect(lastUserMessage(requests.planner[3]?.messages ?? [])).toContain(
      'Overall mean: 3 (2 reviewer(s))',
    );

    const saved = JSON.parse(readFileSync(result.ideasJson, 'utf8')) as Exploration;
    expect(saved.ideas.map((idea) => idea.id)).toEqual(['I1', 'I2']);
    const [best, other] = saved.ideas;
    expect(best?.reviews.map((entry) => entry.overall)).toEqual([3, 5]);
    expect(best?.reviews[0]?.aspects.problem.criteria.clarity?.scores).toEqual([4, 2]);
    expect(best?.score).toBe(5);
    expect(best?.reviews[0]?.agreement?.withinOne).toBe(0);
    expect(best?.reviews[1]?.meta?.summary).toBe('I1 refined: both reviewers agree it is strong.');
    expect(best?.card.rationale).toContain('Refined');
    expect(best?.earlierVersions[0]?.rationale).toBe(first.rationale);
    expect(other?.score).toBe(2);

    // The invented quote is kept but named, in ideas.json, ideas.md and the event.
    expect(saved.quotesChecked).toBe(4);
    expect(saved.unverifiedQuotes).toEqual([
      expect.objectContaining({ where: 'gaps[0].citations[1]', paper: 'P1' }),
    ]);
    const markdown = readFileSync(result.ideasMarkdown, 'utf8');
    expect(markdown).toContain('1 of 4 quotes were NOT found');
    expect(markdown).toContain(
      'mixup always wins on every tabular data set” **(quote not found in the paper)**',
    );

    // Offline novelty names the closest work: the related item for the noise idea.
    const noise = other?.novelty[0];
    expect(noise?.against).toBe('offline');
    expect(noise?.closest?.title).toBe('Feature noise injection for tabular MLPs');
    expect(noise?.verdict).toBe('overlaps');
    expect(best?.novelty[0]?.closest?.title).not.toBe('An unrelated study of protein folding');
    expect(markdown).toContain('closest: "Feature noise injection for tabular MLPs"');

    const { events } = readEvents(result.run.dir);
    expect(
      events
        .filter((event) => event.type === 'stage-end')
        .map((event) => event.type === 'stage-end' && event.stage),
    ).toEqual(['ingest', 'analysis', 'ideas', 'review', 'novelty']);
    expect(events.filter((event) => event.type === 'idea-review')).toHaveLength(4);
    expect(events.filter((event) => event.type === 'novelty-check')).toHaveLength(2);
    const quoteCheck = events.find((event) => event.type === 'quote-check');
    expect(quoteCheck).toMatchObject({
      checked: 4,
      unverified: [{ where: 'gaps[0].citations[1]' }],
    });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });

  it('re-asks an analysis whose quotes are mostly invented or cite a missing section', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-'));
    const invented = analysisAnswer();
    for (const statement of [...invented.tasks, ...invented.gaps]) {
      for (const citation of statement.citations)
        citation.quote = 'a sentence the paper never says';
    }
    const wrongSection = analysisAnswer();
    const firstCitation = wrongSection.tasks[0]?.citations[0];
    if (firstCitation !== undefined) firstCitation.section = 'Related Work';
    const script = scripted({
      planner: [
        json(invented),
        json(wrongSection),
        json(analysisAnswer()),
        json({ ideas: [ideaCard('Class-aware mixup')] }),
      ],
      judge: [json(review(4))],
    });
    const result = await runExplore({
      settings: settings({ ideas: 1, reviewers: 1, refineRounds: 0 }),
      models: script.models,
      host: { runsRoot: root, argv: ['explore'] },
    });
    const planner = script.requests().planner;
    expect(lastUserMessage(planner[1]?.messages ?? [])).toContain(
      'most quotes are not in the papers word for word',
    );
    expect(lastUserMessage(planner[2]?.messages ?? [])).toContain(
      'P1 has no section "Related Work"',
    );
    expect(result.exploration.unverifiedQuotes).toEqual([]);
    expect(readFileSync(result.ideasMarkdown, 'utf8')).toContain(
      'All 3 quotes were found in the papers word for word.',
    );
  });
});
