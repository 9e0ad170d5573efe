import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exploration, ExploredIdea } from '../../src/explore/exploration.js';
import { resumeExplore, runExplore, type ExploreSettings } from '../../src/explore/run-explore.js';
import { explainChoices } from '../../src/explore/review-choice.js';
import { averageReviews, repeatedReviewTemperature } from '../../src/explore/review.js';
import {
  createScriptedCaller,
  type ScriptedCaller,
  type ScriptedRole,
} from '../../src/llm/scripted-model.js';
import type { RoleName } from '../../src/llm/types.js';
import { exploreSettings } from '../../src/modes/explore-settings.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { Run } from '../../src/runs/run.js';
import { loadPrompt } from '../../src/prompts/load-prompt.js';
import { analysisAnswer, ideaCard, json, mixupPaper, review } from './explore-fixtures.js';

const settings = (overrides: Partial<ExploreSettings> = {}): ExploreSettings => ({
  paperPaths: [mixupPaper],
  ideas: 1,
  reviewers: 3,
  refineRounds: 0,
  budgetMinutes: 5,
  gpu: false,
  paperMaxChars: 60_000,
  ...overrides,
});

function scripted(script: Partial<Record<RoleName, ScriptedRole>>) {
  const built: ScriptedCaller[] = [];
  return {
    models: (run: Run) => {
      const caller = createScriptedCaller(script, { run });
      built.push(caller);
      return caller.caller;
    },
    caller: () => {
      const caller = built[0];
      if (caller === undefined) throw new Error('the caller was never built');
      return caller;
    },
  };
}

const card = ideaCard('Class-aware mixup');
const planner = [json(analysisAnswer()), json({ ideas: [card] })];
const meta = (score: number, summary: string) => json({ ...review(score), summary });

async function explore(
  script: ReturnType<typeof scripted>,
  overrides: Partial<ExploreSettings> = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'explore-reviews-'));
  const result = await runExplore({
    settings: settings(overrides),
    models: script.models,
    host: { runsRoot: root, argv: ['explore'] },
  });
  const saved = JSON.parse(readFileSync(result.ideasJson, 'utf8')) as Exploration;
  return { result, saved, markdown: readFileSync(result.ideasMarkdown, 'utf8') };
}

describe('codify explore: independent reviews and a meta-review', () => {
  it('asks for three reviews by default', () => {
    const parsed = exploreSettings.parse({ papers: ['paper.md'] });
    expect(parsed.reviewers).toBe(3);
  });

  it('three reviews under one system prompt defining the criteria, then a meta-review, land in ideas.json', async () => {
    const script = scripted({
      planner,
      judge: [
        json(review(4)),
        json(review(2, (aspect, name) => (name === 'originality' ? 5 : 2))),
        json(review(3)),
        meta(4, 'Reviewer 2 underrated the method; originality is the strength.'),
      ],
    });
    const { saved, markdown, result } = await explore(script);

    const judge = script.caller().requests.judge;
    expect(judge).toHaveLength(4);
    const systems = new Set(judge.map((request) => request.system));
    // One system prompt, byte for byte, for the three reviews and the meta-review.
    expect(systems.size).toBe(1);
    const system = judge[0]?.system ?? '';
    expect(system).toBe(loadPrompt('explore-review-system'));
    for (const criterion of ['originality:', 'rigour:', 'robustness:', 'reproducibility:']) {
      expect(system).toContain(criterion);
    }
    expect(system).toContain('1 means the proposal fails the criterion');
    expect(system).toContain('5 means it meets it fully');
    // One model asked three times: sampled, so the reviews are independent.
    expect(judge.slice(0, 3).map((request) => request.temperature)).toEqual([
      repeatedReviewTemperature,
      repeatedReviewTemperature,
      repeatedReviewTemperature,
    ]);
    // The meta-review reads every review's scores and reasons.
    const metaPrompt = judge[3]?.messages[0]?.content ?? '';
    expect(metaPrompt).toContain('3 reviewers scored it');
    expect(metaPrompt).toContain('### Reviewer 2');
    expect(metaPrompt).toContain('- problem.originality: 5 — problem.originality is 2');

    const last = saved.ideas[0]?.reviews[0];
    expect(last?.samples).toHaveLength(3);
    expect(last?.models).toEqual(['scripted:judge', 'scripted:judge', 'scripted:judge']);
    expect(last?.aspects.problem.criteria.originality).toMatchObject({
      scores: [4, 5, 3],
      range: 2,
    });
    expect(last?.meta).toMatchObject({
      model: 'scripted:judge',
      overall: 4,
      summary: 'Reviewer 2 underrated the method; originality is the strength.',
    });
    // Every criterion spans 2 points (originality too: 4, 5, 3), so none is within one.
    expect(last?.agreement).toMatchObject({ reviewers: 3, withinOne: 0, maxRange: 2 });
    expect(last?.agreement?.disputed).toContain('problem.originality');
    // The meta-review's reconciled mean is the idea's score, not the reviewers' mean.
    expect(last?.overall).toBeCloseTo(3.07, 2);
    expect(saved.ideas[0]?.score).toBe(4);

    expect(markdown).toContain('3 independent reviewer(s) per idea and a meta-review');
    expect(markdown).toContain('Agreement: 0% of criteria within one point across 3 reviewers');
    expect(markdown).toContain('**Meta-review** (scripted:judge): 4.00 / 5');
    expect(markdown).toContain('| Problem | originality | 4.00 | 4, 5, 3 (2) |');

    const { events } = readEvents(result.run.dir);
    expect(
      events.find((event) => event.type === 'stage-end' && event.stage === 'review'),
    ).toMatchObject({ detail: 'I1 4.00 (0% of criteria within one point)' });
    expect(events.find((event) => event.type === 'idea-review')).toMatchObject({
      reviewers: 3,
      meta: 4,
      withinOne: 0,
    });
  });

  it('with two judge models the reviews go to both in turn, the meta-review to the first', async () => {
    const script = scripted({
      planner,
      judge: {
        levels: [
          [json(review(4)), json(review(4)), meta(4, 'Both models agree.')],
          [json(review(3))],
        ],
      },
    });
    const { saved } = await explore(script);
    const [first, second] = script.caller().requestsByLevel.judge;
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(1);
    expect(second?.[0]?.system).toBe(first?.[0]?.system);
    expect(saved.ideas[0]?.reviews[0]?.models).toEqual([
      'scripted:judge',
      'scripted:judge@1',
      'scripted:judge',
    ]);
    expect(saved.ideas[0]?.reviews[0]?.agreement?.withinOne).toBe(1);
    // The first model writes two of the three reviews, so it samples; the second writes one.
    expect(first?.slice(0, 2).map((request) => request.temperature)).toEqual([
      repeatedReviewTemperature,
      repeatedReviewTemperature,
    ]);
    expect(second?.[0]?.temperature).not.toBe(repeatedReviewTemperature);
  });

  it('two reviewers on two models are not re-sampled: each model is asked once at its own temperature', async () => {
    const script = scripted({
      planner,
      judge: { levels: [[json(review(4)), meta(4, 'Agreed.')], [json(review(4))]] },
    });
    await explore(script, { reviewers: 2 });
    const [first, second] = script.caller().requestsByLevel.judge;
    expect(first?.[0]?.temperature).not.toBe(repeatedReviewTemperature);
    expect(second?.[0]?.temperature).not.toBe(repeatedReviewTemperature);
  });

  it('a review that stays garbled is recorded as failed; the other reviews and the meta-review go on', async () => {
    const script = scripted({
      planner,
      judge: [
        json(review(4)),
        'I liked it a lot.',
        '```json\n{"problem": "good"}\n```',
        'Still no JSON, sorry.',
        json(review(2)),
        meta(3, 'Two reviews; one reviewer failed to answer.'),
      ],
    });
    const { saved, markdown, result } = await explore(script);
    const last = saved.ideas[0]?.reviews[0];
    expect(last?.reviewers).toBe(2);
    expect(last?.failed).toEqual([
      expect.objectContaining({ reviewer: 2, model: 'scripted:judge' }),
    ]);
    expect(last?.failed?.[0]?.reason).toContain('no valid answer after 3 attempts');
    expect(last?.meta?.overall).toBe(3);
    expect(markdown).toContain('- Reviewer 2 (scripted:judge) gave no valid review');
    const { events } = readEvents(result.run.dir);
    expect(
      events.some(
        (event) =>
          event.type === 'log' &&
          event.level === 'warn' &&
          event.message.includes('reviewer 2 (scripted:judge) gave no valid review'),
      ),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });

  it("a meta-review that stays garbled leaves the reviewers' mean as the score", async () => {
    const script = scripted({
      planner,
      judge: [json(review(4)), json(review(2)), json(review(3)), 'no', 'no', 'still no'],
    });
    const { saved, result } = await explore(script);
    const last = saved.ideas[0]?.reviews[0];
    expect(last?.meta).toBeUndefined();
    expect(saved.ideas[0]?.score).toBe(3);
    const { events } = readEvents(result.run.dir);
    expect(
      events.some(
        (event) =>
          event.type === 'log' &&
          event.message.includes("meta-review gave no valid answer; the reviewers' mean stands"),
      ),
    ).toBe(true);
  });

  it('every review garbled fails the stage with the reasons (a resume asks again)', async () => {
    const script = scripted({ planner, judge: Array.from({ length: 3 }, () => 'no JSON here') });
    const root = mkdtempSync(join(tmpdir(), 'explore-reviews-'));
    await expect(
      runExplore({
        settings: settings({ reviewers: 1 }),
        models: script.models,
        host: { runsRoot: root, argv: ['explore'] },
      }),
    ).rejects.toThrow(/all 1 reviews: no valid answer after 3 attempts/);
  });

  it('a resume does not ask again the reviews the interrupted run finished', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-reviews-resume-'));
    const first = scripted({
      planner,
      judge: [json(review(4)), json(review(3)), new Error('provider went away')],
    });
    let runDir = '';
    await expect(
      runExplore({
        settings: settings(),
        models: first.models,
        host: {
          runsRoot: root,
          argv: ['explore'],
          onRun: (run) => {
            runDir = run.dir;
          },
        },
      }),
    ).rejects.toThrow(/provider went away/);

    const second = scripted({ judge: [json(review(5)), meta(4, 'Resumed.')] });
    const result = await resumeExplore(runDir, {
      models: second.models,
      host: { runsRoot: root, argv: ['explore', '--resume', runDir] },
    });
    // The two finished reviews come from the log; only the third and the meta-review are asked.
    expect(result.reusedCalls).toBe(2);
    const asked = second.caller().requests.judge;
    expect(asked).toHaveLength(2);
    expect(asked[1]?.messages[0]?.content).toContain('meta-reviewer');
    const reviewed = result.exploration.ideas[0]?.reviews[0];
    expect(reviewed?.aspects.method.criteria.validity?.scores).toEqual([4, 3, 5]);
    expect(reviewed?.meta?.summary).toBe('Resumed.');
  });
});

describe('why the chosen ideas were chosen', () => {
  const idea = (id: string, score: number, summary?: string): ExploredIdea => {
    const averaged = averageReviews([review(score), review(score)]);
    return {
      id,
      card: ideaCard(`Idea ${id}`),
      earlierVersions: [],
      reviews: [
        summary === undefined
          ? averaged
          : {
              ...averaged,
              meta: {
                model: 'scripted:judge',
                overall: score,
                aspects: averaged.aspects as never,
                summary,
              },
            },
      ],
      score,
      novelty: [],
    };
  };
  const ranked = [idea('I2', 4.5, 'Clear and feasible.'), idea('I1', 3)];

  it('top:K: its rank and the meta-review with its reason', () => {
    const [choice] = explainChoices('top:1', ranked);
    expect(choice).toMatchObject({ idea: 'I2', rank: 1, how: 'top' });
    expect(choice?.reason).toContain('--run top:1 takes the 1 best by the judge');
    expect(choice?.reason).toContain('ranked 1 of 2 by the judge: meta-review 4.50 / 5');
    expect(choice?.reason).toContain('Meta-review: Clear and feasible.');
    expect(choice?.reason).toContain('100% of criteria within one point');
  });

  it('ids given to --run, or picked at the gate: the user chose it', () => {
    const [listed] = explainChoices('I1', ranked);
    expect(listed).toMatchObject({ idea: 'I1', rank: 2, how: 'listed' });
    expect(listed?.reason).toContain('the user chose it (--run I1)');
    expect(listed?.reason).toContain("ranked 2 of 2 by the judge: reviewers' mean 3.00 / 5");
    const [picked] = explainChoices('top:1', ranked, true);
    expect(picked?.how).toBe('picked');
    expect(picked?.reason).toContain('the researcher chose it at the experiments gate');
  });
});
