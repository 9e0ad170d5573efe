import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/default-config.js';
import { collectEvaluation } from '../../../src/eval/collection/collect-evaluation.js';
import { runEvaluation } from '../../../src/eval/run-evaluation.js';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import { planRuns, type PlannedRun } from '../../../src/eval/suite/plan-runs.js';
import { readExploreRun } from '../../../src/eval/collection/read-explore.js';
import { writeReports } from '../../../src/eval/reports/write-reports.js';
import { createRun, type Run } from '../../../src/runs/run.js';

/** An averaged review as explore writes it, every criterion of a group at one score. */
function review(problem: number, method: number, experimentPlan: number) {
  const aspect = (score: number) => ({ mean: score, criteria: {}, extra: 'ignored' });
  return {
    reviewers: 1,
    overall: Math.round(((problem + method + experimentPlan) / 3) * 100) / 100,
    aspects: {
      problem: aspect(problem),
      method: aspect(method),
      experimentPlan: aspect(experimentPlan),
    },
    samples: [],
  };
}

function idea(
  id: string,
  scores: [number, number, number],
  verdicts: string[],
  rounds: [number, number, number][] = [],
) {
  const last = review(...scores);
  return {
    id,
    card: { title: `Idea ${id}`, problem: 'p', fieldAddedLater: 1 },
    earlierVersions: [],
    reviews: [...rounds.map((round) => review(...round)), last],
    score: last.overall,
    novelty: verdicts.map((verdict) => ({ against: 'offline', verdict, compared: 3, reason: 'r' })),
  };
}

/** The idea with its last review given by three reviewers, `withinOne` of criteria within a point. */
function withAgreement(row: ReturnType<typeof idea>, withinOne: number) {
  const last = row.reviews.at(-1);
  if (last === undefined) throw new Error('no review');
  const agreed = { ...last, reviewers: 3, agreement: { reviewers: 3, withinOne, meanRange: 1 } };
  return { ...row, reviews: [...row.reviews.slice(0, -1), agreed] };
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

const exploreRun = (planned: PlannedRun): Run =>
  createRun({ root: planned.root, mode: 'explore', name: 'exploration' });

/** An experiment's implement run in the exploration's root, as explore makes it. */
function experimentRun(planned: PlannedRun, ran: boolean): string {
  const run = createRun({ root: planned.root, mode: 'implement', name: 'experiment' });
  writeJson(join(run.dir, 'result.json'), { ran, outcome: 'completed' });
  run.close('completed');
  return run.dir;
}

describe('explore metrics, read from hand-made run folders', () => {
  it('counts ideas, review means, verdicts, experiments that ran and improved beyond the margin, per trial and over trials', async () => {
    const base = mkdtempSync(join(tmpdir(), 'codify-explore-metrics-'));
    writeFileSync(join(base, 'paper.md'), '# A paper\n');
    mkdirSync(join(base, 'code'));
    writeFileSync(
      join(base, 'suite.yaml'),
      'items:\n  - explore: paper.md\n    name: p\n    run: top:3\n    code: code\n    margin: 0.05\nmodels: [{name: m, model: openai:x}]\ntrials: 3\n',
    );
    const suite = loadSuite(join(base, 'suite.yaml'));
    const evalDir = join(base, 'evaluation');
    const planned = planRuns(suite, evalDir);
    const [first, second, third] = planned;
    if (first === undefined || second === undefined || third === undefined) throw new Error('3');

    // Trial 1: three ideas; I1 beats its baseline by more than the margin, I2 by less, I3's
    // experiment failed. Fields explore may add later (seeds) are ignored.
    const one = exploreRun(first);
    writeJson(join(one.dir, 'ideas.json'), {
      papers: [],
      ideas: [
        withAgreement(idea('I1', [4, 5, 3], ['novel', 'overlaps'], [[2, 2, 2]]), 0.8),
        withAgreement(idea('I2', [3, 3, 3], ['novel']), 1),
        idea('I3', [2, 1, 3], ['unknown']),
      ],
    });
    const i1Run = experimentRun(first, true);
    const i2Run = experimentRun(first, true);
    writeJson(join(one.dir, 'experiments.json'), [
      {
        idea: 'I1',
        status: 'ran',
        reason: 'done',
        runDir: i1Run,
        resultPath: join(i1Run, 'result.json'),
        metric: { name: 'accuracy', value: 0.9, baseline: 0.8, improvement: 0.1, goal: 'max' },
        seeds: [{ seed: 0, value: 0.9 }],
        verdict: { verdict: 'supported', reason: 'beyond the margin', stopCriteria: 's' },
        notRun: [{ step: 'repeat on ImageNet', reason: 'no such data' }],
      },
      {
        idea: 'I2',
        status: 'ran',
        reason: 'done',
        runDir: i2Run,
        resultPath: join(i2Run, 'result.json'),
        metric: { name: 'accuracy', value: 0.82, baseline: 0.8, improvement: 0.02 },
        verdict: { verdict: 'inconclusive', reason: 'within the margin', stopCriteria: 's' },
      },
      { idea: 'I3', status: 'failed', reason: 'the sandbox refused' },
    ]);
    one.close('completed');

    // Trial 2: its experiments failed: one ended without its script running, one threw.
    const two = exploreRun(second);
    writeJson(join(two.dir, 'ideas.json'), {
      ideas: [idea('I1', [5, 5, 5], ['novel']), idea('I2', [3, 3, 3], ['overlaps'])],
    });
    const brokenRun = experimentRun(second, false);
    writeJson(join(two.dir, 'experiments.json'), [
      {
        idea: 'I1',
        status: 'ran',
        reason: 'the final script crashed',
        runDir: brokenRun,
        resultPath: join(brokenRun, 'result.json'),
        metric: { name: 'accuracy', value: null, baseline: 0.8, improvement: null },
      },
      { idea: 'I2', status: 'failed', reason: 'no such metric' },
    ]);
    two.close('completed');

    // Trial 3: killed before its ideas were written (no ideas.json, no run-end).
    const three = exploreRun(third);

    const summary = await collectEvaluation(suite, evalDir, planned);
    const [r1, r2, r3] = summary.runs;
    // The exploration, not its experiments' later implement runs, is the trial's run.
    expect(r1?.runDir).toBe(one.dir);
    expect(r1?.explore).toMatchObject({
      ideasWritten: true,
      ideas: 3,
      novelty: { novel: 2, overlaps: 1, unknown: 1 },
      experiments: { requested: true, written: true, chosen: 3, ran: 2, improved: 1, failed: 1 },
      ranShare: 2 / 3,
      improvedShare: 1 / 3,
      margin: 0.05,
      hypotheses: { supported: 1, refuted: 0, inconclusive: 1 },
      notRunSteps: 1,
      problems: [],
    });
    // I3 had one reviewer: no agreement to average.
    expect(r1?.explore?.reviewAgreement).toBeCloseTo(0.9, 10);
    expect(r1?.explore?.ideaList.find((row) => row.id === 'I1')?.experiment).toMatchObject({
      hypothesis: 'supported',
      notRun: 1,
    });
    // The last round's review counts, not the first.
    expect(r1?.explore?.review.problem).toBeCloseTo((4 + 3 + 2) / 3, 10);
    expect(r1?.explore?.review.method).toBeCloseTo((5 + 3 + 1) / 3, 10);
    expect(r1?.explore?.review.experimentPlan).toBeCloseTo((3 + 3 + 3) / 3, 10);
    expect(r1?.explore?.review.overall).toBeCloseTo((4 + 3 + 2) / 3, 10);
    expect(r1?.explore?.ideaList.find((row) => row.id === 'I2')?.experiment).toMatchObject({
      ran: true,
      improved: false,
      improvement: 0.02,
      runDir: i2Run,
    });

    expect(r2?.explore).toMatchObject({
      ideas: 2,
      experiments: { chosen: 2, ran: 0, improved: 0, failed: 1 },
      ranShare: 0,
      improvedShare: 0,
    });
    expect(r2?.explore?.ideaList[0]?.experiment).toMatchObject({ status: 'ran', ran: false });

    expect(r3?.status).toBe('interrupted');
    expect(r3?.runDir).toBe(three.dir);
    expect(r3?.explore).toMatchObject({
      ideasWritten: false,
      ideas: 0,
      ranShare: null,
      improvedShare: null,
      experiments: { written: false, chosen: 0 },
    });
    expect(summary.missing).toEqual([third.key]);

    // Over the finished trials; the killed one is missing, not a zero.
    const group = summary.explore[0];
    expect(group?.missing).toBe(1);
    expect(group?.ideas).toMatchObject({ n: 2, mean: 2.5 });
    expect(group?.ranShare.mean).toBeCloseTo(1 / 3, 10);
    expect(group?.improvedShare.mean).toBeCloseTo(1 / 6, 10);
    expect(group?.improvedShare.std).toBeCloseTo(Math.SQRT2 / 6, 10);
    expect(group?.reviewOverall.mean).toBeCloseTo((3 + 4) / 2, 10);
    expect(group?.novelty).toEqual({ novel: 3, overlaps: 2, unknown: 1 });
    expect(group?.hypotheses).toEqual({ supported: 1, refuted: 0, inconclusive: 1 });
    expect(group?.notRunSteps).toBe(1);
    expect(group?.reviewAgreement).toMatchObject({ n: 1, mean: 0.9 });
    expect(group).toMatchObject({
      experimentsChosen: 5,
      experimentsRan: 2,
      experimentsImproved: 1,
    });

    const reports = await writeReports(summary);
    const markdown = readFileSync(reports.markdown, 'utf8');
    expect(markdown).toContain('no ideas.json (the run ended before its ideas were written)');
    expect(markdown).toMatch(/\| p \| m \| 2 \| 2\.5 ± 0\.71 \| 3\.5 ± 0\.71 \|/);
    expect(markdown).toMatch(
      /\| I1 \| Idea I1 \|[^\n]*\| 80 % \| novel \/ overlaps \| ran, improved \| supported \| 1 \| accuracy 0\.9 \| 0\.8 \| \+0\.1 \|/,
    );
  });

  it('refuses, before the evaluation folder is made, an exploration whose code: cannot hold experiments', async () => {
    const base = mkdtempSync(join(tmpdir(), 'codify-explore-code-'));
    writeFileSync(join(base, 'paper.md'), '# A paper\n');
    mkdirSync(join(base, 'empty'));
    writeFileSync(
      join(base, 'suite.yaml'),
      'items: [{explore: paper.md, name: p, run: 1, code: empty}]\nmodels: [{name: m, model: openai:x}]\nsandbox: none\n',
    );
    const suite = loadSuite(join(base, 'suite.yaml'));
    const evalDir = join(base, 'evaluation');
    await expect(runEvaluation({ suite, evalDir, baseConfig: defaultConfig() })).rejects.toThrow(
      /suite\.yaml: item p: code: .*empty cannot hold experiments/,
    );
    expect(existsSync(evalDir)).toBe(false);
  });

  it('says what it could not read instead of failing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codify-explore-broken-'));
    writeFileSync(join(dir, 'ideas.json'), '{"ideas": [');
    writeJson(join(dir, 'experiments.json'), [{ status: 'ran' }]);
    const figures = readExploreRun(dir, { experiments: true, margin: 0 });
    expect(figures).toMatchObject({ ideasWritten: false, ideas: 0, ranShare: null });
    expect(figures.problems).toHaveLength(2);
    expect(figures.problems[0]).toContain('ideas.json');
    expect(figures.problems[1]).toContain('experiments.json');
  });
});
