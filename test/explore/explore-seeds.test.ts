import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAction } from '../../src/agent/actions/index.js';
import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { Run } from '../../src/runs/run.js';
import { writeScript } from '../agent/fake-actions.js';
import { plannerAnswer, scriptedCaller } from '../agent/scripted-caller.js';
import { analysisAnswer, ideaCard, json, mixupPaper, review } from './explore-fixtures.js';

const finalAnswer = findAction('Final Answer');
if (finalAnswer === undefined) throw new Error('no Final Answer action');
const actions = [writeScript, finalAnswer] as ActionDefinition[];

/** A final script that prints the accuracy of the seed given by --seed (default 0). */
const bySeed = (values: number[]) =>
  `import sys\nseed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 0\nprint(f"accuracy: {${JSON.stringify(values)}[seed]}")\n`;

describe('codify explore --run: each seed of the plan is its own measured run', () => {
  it('reports mean, spread and per-seed values, and ranks by the effect beyond the margin', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-seeds-'));
    const codeDir = join(root, 'prototype');
    mkdirSync(codeDir);
    writeFileSync(join(codeDir, 'starter_code.py'), 'print("accuracy: 0.5")\n');
    // Seed 0 flatters the mixup idea (0.9); its other seeds do not. Feature noise is steady.
    const scripts: Record<string, number[]> = {
      'Class-aware mixup': [0.9, 0.5, 0.5, 0.5, 0.5],
      'Feature noise': [0.6, 0.61, 0.59, 0.6, 0.6],
    };
    const models = (run: Run) =>
      run.mode === 'explore'
        ? createScriptedCaller(
            {
              planner: [
                json(analysisAnswer()),
                json({ ideas: Object.keys(scripts).map((title) => ideaCard(title)) }),
              ],
              judge: [json(review(5)), json(review(4))],
            },
            { run },
          ).caller
        : scriptedCaller({
            planner: (request, step) => {
              // the problem (with the idea) is in the planner's system prompt
              const prompt = request.system ?? '';
              const title = Object.keys(scripts).find((name) => prompt.includes(`# ${name}`));
              return step === 1
                ? plannerAnswer('Write Script', {
                    script_name: 'methodology_implementation.py',
                    content: bySeed(scripts[title ?? ''] ?? []),
                  })
                : plannerAnswer('Final Answer', {
                    final_script: 'methodology_implementation.py',
                    summary: 'done',
                  });
            },
          });
    const result = await runExplore({
      settings: {
        paperPaths: [mixupPaper],
        ideas: 2,
        reviewers: 1,
        refineRounds: 0,
        budgetMinutes: 5,
        gpu: false,
        paperMaxChars: 60_000,
        experiments: {
          select: 'top:2',
          codeDir,
          sandbox: 'none',
          python: '/usr/bin/python3',
          gpu: false,
          maxSteps: 3,
        },
      },
      models,
      experimentActions: actions,
      host: { runsRoot: join(root, 'runs') },
    });
    const methodology = readFileSync(
      join(result.run.dir, 'experiments', 'I1', 'task', 'methodology_description.txt'),
      'utf8',
    );
    expect(methodology).toContain('takes `--seed N` on its command line (without\nit, seed 0)');
    expect(methodology).toContain('seed of the plan (0, 1, 2, 3, 4)');

    const records = result.experiments ?? [];
    // By the single final run, mixup gains 0.4 and noise 0.1; by the seeds, noise wins.
    expect(records.map((record) => [record.idea, record.metric?.improvement])).toEqual([
      ['I2', 0.1],
      ['I1', 0.4],
    ]);
    const [noise, mixup] = records.map((record) => record.metric?.seeds);
    expect(noise?.runs.map((entry) => [entry.seed, entry.value])).toEqual([
      [0, 0.6],
      [1, 0.61],
      [2, 0.59],
      [3, 0.6],
      [4, 0.6],
    ]);
    expect(noise?.mean).toBeCloseTo(0.6, 9);
    expect(noise?.sd).toBeCloseTo(Math.sqrt(0.0002 / 4), 9);
    expect(noise?.beyondMargin).toBe(true);
    expect(mixup?.mean).toBeCloseTo(0.58, 9);
    expect(mixup?.sd).toBeCloseTo(Math.sqrt((0.32 ** 2 + 4 * 0.08 ** 2) / 4), 9);
    expect(mixup?.margin).toBeCloseTo((2 * (mixup?.sd ?? 0)) / Math.sqrt(5), 9);
    expect(mixup?.beyondMargin).toBe(false);
    // Every seed value is the last metric line of the output file it names.
    for (const entry of [...(noise?.runs ?? []), ...(mixup?.runs ?? [])]) {
      expect(readFileSync(entry.outputPath, 'utf8').trim()).toBe(`accuracy: ${entry.value}`);
    }
    const saved = JSON.parse(readFileSync(join(result.run.dir, 'experiments.json'), 'utf8')) as {
      metric?: { seeds?: { effect: number } };
    }[];
    expect(saved.map((record) => record.metric?.seeds?.effect)).toEqual([
      noise?.effect,
      mixup?.effect,
    ]);
    const report = readFileSync(result.report ?? '', 'utf8');
    expect(report).toContain('I1. Class-aware mixup');
    expect(report).toContain(
      "not supported: better than the baseline, but within the seeds' margin",
    );
    expect(report).toContain("supported: better than the baseline beyond the seeds' margin");
    expect(report).toContain('seed 1: 0.61 ([output](');
  });
});
