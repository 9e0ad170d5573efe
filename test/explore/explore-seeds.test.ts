import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { Run } from '../../src/runs/run.js';
import { plannerAnswer, scriptedCaller } from '../agent/scripted-caller.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';
import type { ExperimentRecord } from '../../src/explore/experiments/run-experiments.js';
import { measuredSummary } from '../../src/explore/experiments/measured-summary.js';
import { hypothesisLine } from '../../src/explore/experiments/render-report.js';
import type { ScriptedRequest } from '../../src/llm/scripted-model.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { SeedRun } from '../../src/tasks/seeds/run-seeds.js';
import { experimentActions as actions } from './experiment-actions.js';

/**
 * A final script for the seed given by --seed (default 0): the plain accuracy line, then the
 * structured line with accuracy and log-loss.
 */
const bySeed = (accuracy: number[], logLoss: number[]) =>
  `import json, sys\nseed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 0\nprint(f"accuracy: {${JSON.stringify(accuracy)}[seed]}")\nprint("CODIFY_RESULT " + json.dumps({"seed": seed, "metrics": {"accuracy": ${JSON.stringify(accuracy)}[seed], "log-loss": ${JSON.stringify(logLoss)}[seed]}}))\n`;

/** The prototype: its accuracy and log-loss move with the seed, printed as plain lines. */
const baselineAccuracy = [0.5, 0.52, 0.48, 0.5, 0.5];
const baselineLogLoss = [0.7, 0.68, 0.72, 0.7, 0.7];
const prototype = `import sys\nseed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 0\nprint(f"accuracy: {${JSON.stringify(baselineAccuracy)}[seed]}")\nprint(f"log-loss: {${JSON.stringify(baselineLogLoss)}[seed]}")\n`;

/** An exploration of the first `ideas` ideas with their experiments; the judge answers `judge`. */
async function explorePaired(judge: string[], ideas: number, maxSeeds?: number) {
  const root = mkdtempSync(join(tmpdir(), 'explore-seeds-'));
  const codeDir = join(root, 'prototype');
  mkdirSync(codeDir);
  writeFileSync(join(codeDir, 'starter_code.py'), prototype);
  // Seed 0 flatters the mixup idea (0.9); its other seeds do not. Feature noise adds 0.1 on
  // every seed of the baseline's.
  const scripts: Record<string, { accuracy: number[]; logLoss: number[] }> = {
    'Class-aware mixup': {
      accuracy: [0.9, 0.5, 0.5, 0.5, 0.5],
      logLoss: [0.6, 0.7, 0.7, 0.7, 0.7],
    },
    'Feature noise': {
      accuracy: baselineAccuracy.map((value) => value + 0.1),
      logLoss: baselineLogLoss.map((value) => value - 0.01),
    },
  };
  let judgeRequests: ScriptedRequest[] = [];
  let plannerRequests: ScriptedRequest[] = [];
  const models = (run: Run) => {
    if (run.mode === 'explore') {
      const scripted = createScriptedCaller(
        {
          planner: [
            json(analysisAnswer()),
            json({
              ideas: Object.keys(scripts)
                .slice(0, ideas)
                .map((title) => ideaCard(title)),
            }),
          ],
          judge,
        },
        { run },
      );
      judgeRequests = scripted.requests.judge;
      plannerRequests = scripted.requests.planner;
      return scripted.caller;
    }
    return scriptedCaller({
      planner: (request, step) => {
        // the problem (with the idea) is in the planner's system prompt
        const prompt = request.system ?? '';
        const title = Object.keys(scripts).find((name) => prompt.includes(`# ${name}`)) ?? '';
        const values = scripts[title] ?? { accuracy: [], logLoss: [] };
        return step === 1
          ? plannerAnswer('Write Script', {
              script_name: 'methodology_implementation.py',
              content: bySeed(values.accuracy, values.logLoss),
            })
          : plannerAnswer('Final Answer', {
              final_script: 'methodology_implementation.py',
              summary: 'done',
            });
      },
    });
  };
  const result = await runExplore({
    settings: {
      paperPaths: [mixupPaper],
      ideas,
      reviewers: 1,
      refineRounds: 0,
      budgetMinutes: 5,
      gpu: false,
      paperMaxChars: 60_000,
      experiments: {
        select: `top:${ideas}`,
        codeDir,
        sandbox: 'none',
        python: '/usr/bin/python3',
        gpu: false,
        maxSteps: 3,
        ...(maxSeeds === undefined ? {} : { maxSeeds }),
      },
    },
    models,
    experimentActions: actions,
    host: { runsRoot: join(root, 'runs') },
  });
  return {
    result,
    judgeRequests: () => judgeRequests,
    plannerRequests: () => plannerRequests,
  };
}

describe('codify explore --run: the idea and the baseline on the same seeds, paired', () => {
  it("runs the baseline once per seed, pairs each metric seed by seed, and stores the judge's verdict", async () => {
    const { result, judgeRequests: asked } = await explorePaired(
      [
        json(review(5)),
        json(review(4)),
        // I1's verdict: garbled first, re-asked, then answered.
        'Supported, I would say.',
        verdictAnswer('inconclusive', 'Mixup gains 0.08 on average, within its margin.'),
        verdictAnswer('supported', 'Feature noise gains 0.1 on every seed.'),
      ],
      2,
    );
    const judgeRequests = asked();
    const dir = result.run.dir;
    const methodology = readFileSync(
      join(dir, 'experiments', 'I1', 'task', 'methodology_description.txt'),
      'utf8',
    );
    expect(methodology).toContain('takes `--seed N` on its command line (without\nit, seed 0)');
    expect(methodology).toContain('seed of the plan (0, 1, 2, 3, 4)');
    expect(methodology).toContain(
      'CODIFY_RESULT {"seed": <seed>, "metrics": {"accuracy": <value>, "log-loss": <value>}}',
    );

    // The baseline ran once per seed, for both ideas together: five runs, each kept.
    const baselineRuns = readEvents(dir).events.filter(
      (event) => event.type === 'log' && event.message.startsWith('baseline on seed'),
    );
    expect(baselineRuns).toHaveLength(5);
    for (const seed of [0, 1, 2, 3, 4]) {
      const kept = JSON.parse(
        readFileSync(join(dir, 'experiments', 'baseline', 'seeds', `seed-${seed}.json`), 'utf8'),
      ) as SeedRun;
      expect(kept.value).toBe(null);
      expect(readFileSync(kept.outputPath, 'utf8')).toContain(
        `accuracy: ${baselineAccuracy[seed]}`,
      );
    }

    const records = result.experiments ?? [];
    // By the single final run, mixup gains 0.4 and noise 0.1; paired by seed, noise wins.
    expect(records.map((record) => [record.idea, record.metric?.improvement])).toEqual([
      ['I2', 0.1],
      ['I1', 0.4],
    ]);
    const [noise, mixup] = records;
    // The structured line's two metrics, per seed.
    expect(noise?.metric?.seeds?.runs[1]?.metrics).toEqual({ accuracy: 0.62, 'log-loss': 0.67 });
    const noiseAccuracy = noise?.paired?.metrics[0];
    expect(noiseAccuracy).toMatchObject({ name: 'accuracy', goal: 'max', primary: true });
    expect(noiseAccuracy?.baseline.map((entry) => entry.value)).toEqual(baselineAccuracy);
    expect(noiseAccuracy?.effect?.pairs.map((pair) => pair.difference)).toEqual([
      0.1, 0.1, 0.1, 0.1, 0.1,
    ]);
    expect(noiseAccuracy?.effect?.effect).toBeCloseTo(0.1, 9);
    expect(noiseAccuracy?.effect?.beyondMargin).toBe(true);
    // log-loss: lower is better, so the baseline's value less the idea's.
    const noiseLoss = noise?.paired?.metrics[1];
    expect(noiseLoss).toMatchObject({ name: 'log-loss', goal: 'min', primary: false });
    expect(noiseLoss?.effect?.effect).toBeCloseTo(0.01, 9);

    const mixupAccuracy = mixup?.paired?.metrics[0];
    const differences = [0.4, -0.02, 0.02, 0, 0];
    expect(mixupAccuracy?.effect?.pairs.map((pair) => pair.difference)).toEqual(differences);
    expect(mixupAccuracy?.effect?.effect).toBeCloseTo(0.08, 9);
    const sd = Math.sqrt(
      differences.reduce((sum, value) => sum + (value - 0.08) ** 2, 0) / (differences.length - 1),
    );
    // t(97.5 %, 4) = 2.776: the margin as the evaluation pairs seeds.
    expect(mixupAccuracy?.effect?.margin).toBeCloseTo((2.776 * sd) / Math.sqrt(5), 6);
    expect(mixupAccuracy?.effect?.beyondMargin).toBe(false);
    expect(mixup?.metric?.seeds?.mean).toBeCloseTo(0.58, 9);
    expect(mixup?.metric?.seeds?.improvement).toBeCloseTo(0.08, 9);
    expect(mixup?.metric?.seeds?.beyondMargin).toBe(false);

    // The verdicts: the garbled answer was re-asked with its problem, then accepted.
    expect(judgeRequests).toHaveLength(5);
    expect(judgeRequests[2]?.messages[0]?.content).toContain('## Stop criteria');
    expect(judgeRequests[2]?.messages[0]?.content).toContain(
      'paired effect 0.08 ± ' + String(mixupAccuracy?.effect?.margin),
    );
    expect(judgeRequests[3]?.messages.at(-1)?.content).toContain('Your answer could not be used');
    const saved = JSON.parse(
      readFileSync(join(dir, 'experiments.json'), 'utf8'),
    ) as ExperimentRecord[];
    expect(saved.map((record) => [record.idea, record.verdict?.verdict])).toEqual([
      ['I2', 'supported'],
      ['I1', 'inconclusive'],
    ]);
    expect(saved[0]?.verdict?.stopCriteria).toBe(ideaCard('x').experimentPlan.stopCriteria);
    const report = readFileSync(result.report ?? '', 'utf8');
    expect(report).toContain('**Paired with the baseline on seeds 0, 1, 2, 3, 4.**');
    expect(report).toContain(
      '**Hypothesis verdict.** supported (judged by the stop criteria "stop when five seeds show no gain beyond one standard deviation"): Feature noise gains 0.1 on every seed.',
    );
    expect(report).toContain("better than the baseline, but within the seeds' margin");
    expect(measuredSummary(saved[0] as ExperimentRecord)).toBe(
      "accuracy mean 0.6 over 5 seeds vs the baseline's 0.5 on the same seeds (paired +0.1 ± 0, beyond the margin); hypothesis supported",
    );
  });

  it('a judge whose verdicts never fit leaves the experiment without one, the problem said', async () => {
    const garbled = 'Supported, I would say.';
    const { result } = await explorePaired([json(review(5)), garbled, garbled, garbled], 1);
    const [record] = result.experiments ?? [];
    expect(record?.paired?.metrics[0]?.effect?.effect).toBeCloseTo(0.08, 9);
    expect(record?.verdict).toBeUndefined();
    expect(record?.verdictProblem).toMatch(/I1 verdict: no valid answer after 3 attempts/);
    expect(record === undefined ? '' : hypothesisLine(record)).toMatch(
      /^none: I1 verdict: no valid answer/,
    );
  });

  it('--max-seeds: the ideas are told, and the experiment and the baseline run the first N seeds of the plan', async () => {
    const { result, plannerRequests, judgeRequests } = await explorePaired(
      [json(review(5)), verdictAnswer('inconclusive', 'Within the margin on three seeds.')],
      1,
      3,
    );
    const ideasPrompt = JSON.stringify(plannerRequests()[1]);
    expect(ideasPrompt).toContain(
      'each experiment runs at most 3 seeds (the first 3 its plan lists)',
    );
    const dir = result.run.dir;
    const methodology = readFileSync(
      join(dir, 'experiments', 'I1', 'task', 'methodology_description.txt'),
      'utf8',
    );
    expect(methodology).toContain(
      "(0, 1, 2: the first 3 of the plan's 5, as the exploration allows)",
    );
    const baselineRuns = readEvents(dir).events.filter(
      (event) => event.type === 'log' && event.message.startsWith('baseline on seed'),
    );
    expect(baselineRuns).toHaveLength(3);
    const [record] = result.experiments ?? [];
    expect(record?.paired?.seeds).toEqual([0, 1, 2]);
    expect(record?.metric?.seeds?.runs.map((run) => run.seed)).toEqual([0, 1, 2]);
    expect(record?.paired?.metrics[0]?.effect?.pairs.map((pair) => pair.difference)).toEqual([
      0.4, -0.02, 0.02,
    ]);
    // The verdict is told that fewer seeds ran than the plan lists.
    expect(judgeRequests()[1]?.messages[0]?.content).toContain(
      "per seed (0, 1, 2: the first 3 of the 5 its plan lists, as many as the exploration allowed); the plan's ablations were not run on the seeds",
    );
  });
});
