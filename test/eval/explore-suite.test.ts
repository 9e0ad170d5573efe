import { readEvents } from '../../src/runs/read-events.js';
import type { EventOf } from '../../src/runs/events.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import { stageFile } from '../../src/runs/stages.js';

const root = resolve(import.meta.dirname, '../..');

interface IdeasFile {
  ideas: {
    id: string;
    score: number;
    reviews: { aspects: Record<'problem' | 'method' | 'experimentPlan', { mean: number }> }[];
    novelty: { verdict: string }[];
  }[];
}
interface ExperimentLine {
  idea: string;
  status: string;
  runDir?: string;
  metric?: {
    value: number | null;
    baseline: number | null;
    improvement: number | null;
    seeds?: { mean: number; improvement: number; beyondMargin: boolean };
  };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function readRunFiles(runDir: string): { ideas: IdeasFile; experiments: ExperimentLine[] } {
  return {
    ideas: JSON.parse(readFileSync(join(runDir, 'ideas.json'), 'utf8')) as IdeasFile,
    experiments: JSON.parse(
      readFileSync(join(runDir, 'experiments.json'), 'utf8'),
    ) as ExperimentLine[],
  };
}

describe('explore items in an evaluation (examples/eval/explore-suite.yaml)', () => {
  it('replays explore-wine as a run of the evaluation, reads its figures from ideas.json and experiments.json, and resumes it when killed', async () => {
    const suite = loadSuite(join(root, 'examples/eval/explore-suite.yaml'));
    const evalDir = join(mkdtempSync(join(tmpdir(), 'codify-explore-eval-')), 'evaluation');
    const first = await runEvaluation({ suite, evalDir, baseConfig: defaultConfig() });
    expect(first.summary.missing).toEqual([]);
    const run = first.summary.runs[0];
    expect(run?.status).toBe('completed');
    const runDir = run?.runDir ?? '';
    expect(runDir.startsWith(join(evalDir, 'runs', 'wine', 'explore', 'recorded', 'trial-1'))).toBe(
      true,
    );
    const { ideas, experiments } = readRunFiles(runDir);
    const figures = run?.explore;
    // The figures are what the run's own files hold.
    expect(figures?.ideas).toBe(ideas.ideas.length);
    expect(figures?.review.overall).toBeCloseTo(mean(ideas.ideas.map((idea) => idea.score)), 10);
    for (const aspect of ['problem', 'method', 'experimentPlan'] as const) {
      const expected = mean(
        ideas.ideas.map((idea) => idea.reviews.at(-1)?.aspects[aspect].mean ?? 0),
      );
      expect(figures?.review[aspect]).toBeCloseTo(expected, 10);
    }
    const novel = ideas.ideas
      .flatMap((idea) => idea.novelty)
      .filter((check) => check.verdict === 'novel');
    expect(figures?.novelty.novel).toBe(novel.length);
    const ran = experiments.filter(
      (record) => record.status === 'ran' && record.metric?.value != null,
    );
    // Each seed ran on its own: improved means beyond the seeds' margin.
    const improved = ran.filter(
      (record) =>
        record.metric?.seeds?.beyondMargin === true && record.metric.seeds.improvement > 0,
    );
    expect(improved.length).toBeGreaterThan(0);
    expect(figures?.experiments).toMatchObject({
      chosen: experiments.length,
      ran: ran.length,
      improved: improved.length,
    });
    expect(figures?.ranShare).toBe(ran.length / ideas.ideas.length);
    expect(figures?.improvedShare).toBe(improved.length / ideas.ideas.length);
    for (const record of experiments) {
      const row = figures?.ideaList.find((idea) => idea.id === record.idea)?.experiment;
      expect(row).toMatchObject({
        value: record.metric?.seeds?.mean,
        baseline: record.metric?.baseline,
        improvement: record.metric?.seeds?.improvement,
        runDir: record.runDir,
      });
    }
    // And what the recording is known to hold: both ideas beat the baseline on its three seeds,
    // and the judge found both hypotheses supported.
    expect(figures?.ideaList.map((idea) => [idea.id, idea.review.overall])).toEqual([
      ['I1', 3.93],
      ['I2', 3.67],
    ]);
    expect(figures).toMatchObject({
      ideas: 2,
      ranShare: 1,
      improvedShare: 1,
      hypotheses: { supported: 2, refuted: 0, inconclusive: 0 },
      notRunSteps: 0,
    });
    expect(figures?.reviewAgreement).toBe(1);
    const i1 = figures?.ideaList.find((idea) => idea.id === 'I1')?.experiment;
    expect(i1).toMatchObject({ baseline: 0.6605, improved: true });
    expect(i1?.value).toBeCloseTo(0.993827, 6);
    const i2 = figures?.ideaList.find((idea) => idea.id === 'I2')?.experiment;
    expect(i2).toMatchObject({ ran: true, improved: true, hypothesis: 'supported' });
    const group = first.summary.explore[0];
    expect(group).toMatchObject({ item: 'wine', model: 'recorded', experimentsImproved: 2 });
    expect(group?.reviewOverall.mean).toBeCloseTo(3.8, 10);
    // The experiments' model calls count in the run's totals: 12 exploration calls (analysis,
    // ideas, three reviews and a meta-review per idea, two verdicts) + 8 of the experiments
    // (each: Edit Script with its worker call, Execute Script, Final Answer; no summaries).
    expect(run?.llmCalls).toBe(20);
    // The progress line counted them as they were paid, the experiments' calls included.
    const progress = readEvents(evalDir).events.findLast(
      (event): event is EventOf<'eval-progress'> => event.type === 'eval-progress',
    );
    expect(progress?.tokens).toBe((run?.inputTokens ?? 0) + (run?.outputTokens ?? 0));
    const markdown = readFileSync(first.reports.markdown, 'utf8');
    expect(markdown).toContain('## Explore: ideas, reviews and experiments');
    expect(markdown).toMatch(/\| wine \| recorded \| 1 \| 2 \| 3\.80? \|/);
    expect(markdown).toContain('| I1 | Standardize features before full-batch gradient descent |');
    const html = readFileSync(first.reports.html, 'utf8');
    expect(html).toContain('ideas that beat the baseline');
    const report = JSON.parse(readFileSync(first.reports.json, 'utf8')) as {
      explore: { ranShare: { mean: number } }[];
    };
    expect(report.explore[0]?.ranShare.mean).toBe(1);

    // Killed once its ideas were written, before the experiments: the run is resumed, its
    // finished stages returned from the run folder (none of its exploration calls asked
    // again), the experiments replayed after them.
    const lines = readFileSync(join(runDir, 'events.jsonl'), 'utf8').trimEnd().split('\n');
    const cut = lines.findIndex((line) => {
      const event = JSON.parse(line) as { type: string; stage?: string };
      return event.type === 'stage-start' && event.stage === 'experiments';
    });
    expect(cut).toBeGreaterThan(0);
    writeFileSync(join(runDir, 'events.jsonl'), `${lines.slice(0, cut).join('\n')}\n`);
    // A process killed there had stored no stage from the experiments on.
    for (const line of lines.slice(cut)) {
      const event = JSON.parse(line) as { type: string; stage?: string };
      if (event.type === 'stage-start' && event.stage !== undefined) {
        rmSync(stageFile(runDir, event.stage), { force: true });
      }
    }
    // Nor any experiment: their folders under experiments/ (the baseline, measured before the
    // ideas, stays).
    for (const idea of ['I1', 'I2']) rmSync(join(runDir, 'experiments', idea), { recursive: true });
    rmSync(join(runDir, 'experiments.json'));
    rmSync(join(runDir, 'report.md'));
    const again = await runEvaluation({ suite, evalDir, baseConfig: defaultConfig() });
    expect(again.started).toBe(1);
    const resumed = again.summary.runs[0];
    expect(resumed?.runDir).toBe(runDir);
    expect(resumed?.status).toBe('completed');
    expect(existsSync(join(runDir, 'experiments.json'))).toBe(true);
    expect(resumed?.explore).toMatchObject({ ideas: 2, ranShare: 1, improvedShare: 1 });
    const evalEvents = readFileSync(join(evalDir, 'events.jsonl'), 'utf8');
    expect(evalEvents).toMatch(/"type":"eval-run-start"[^\n]*"resumed":true/);
    const end = readFileSync(join(runDir, 'events.jsonl'), 'utf8').trimEnd().split('\n').at(-1);
    expect(JSON.parse(end ?? '{}')).toMatchObject({ type: 'run-end', result: { reusedCalls: 0 } });
  }, 240_000);
});
