import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/default-config.js';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import { runEvaluation } from '../../../src/eval/run-evaluation.js';
import { agentAnswer } from '../agent-script.js';
import { makeEvalFolder, scriptedAnswerer } from '../eval-fixture.js';

describe('a folder as a suite', () => {
  it('finds its task folders, papers and paper folders with their rubrics', () => {
    const { base } = makeEvalFolder();
    mkdirSync(join(base, 'notes'));
    writeFileSync(join(base, 'README.md'), '# not a paper\n');
    writeFileSync(join(base, 'idea.md'), '# A paper\n\nText.\n');
    mkdirSync(join(base, 'mixup'));
    writeFileSync(join(base, 'mixup', 'paper.md'), '# Mixup\n');
    writeFileSync(
      join(base, 'mixup', 'rubric.json'),
      JSON.stringify({ id: 'r', requirements: 'x', weight: 1, sub_tasks: [] }),
    );
    expect(() => loadSuite(base)).toThrow(/rubric\.json: \(root\): a leaf needs "task_category"/);
    writeFileSync(
      join(base, 'mixup', 'rubric.json'),
      JSON.stringify({
        id: 'r',
        requirements: 'x',
        weight: 1,
        sub_tasks: [],
        task_category: 'Code Development',
      }),
    );
    const suite = loadSuite(base);
    expect(suite.items.map((item) => `${item.kind}:${item.name}`)).toEqual([
      'paper:idea',
      'paper:mixup',
      'task:toy',
    ]);
    const mixup = suite.items.find((item) => item.name === 'mixup');
    expect(mixup?.kind === 'paper' ? mixup.rubric : undefined).toBe(
      join(base, 'mixup', 'rubric.json'),
    );
  });

  it('refuses to run without a model in the configuration, and runs with one', async () => {
    const { base } = makeEvalFolder();
    const suite = { ...loadSuite(base), starterTrials: 0, python: '/usr/bin/python3' };
    const evalDir = join(base, 'evaluation');
    await expect(runEvaluation({ suite, evalDir, baseConfig: defaultConfig() })).rejects.toThrow(
      /no model is set for planner, expert, worker, summarizer: pass --model SPEC/,
    );
    const config = defaultConfig();
    for (const role of ['planner', 'expert', 'worker', 'summarizer'] as const)
      config.roles[role].models = ['scripted:cfg'];
    const outcome = await runEvaluation({
      suite,
      evalDir,
      baseConfig: config,
      answerers: (spec) => (spec === 'scripted:cfg' ? scriptedAnswerer(agentAnswer) : undefined),
    });
    expect(outcome.summary.runs.map((run) => [run.key, run.implement?.category])).toEqual([
      ['toy/agent/configured/trial-1', 'B'],
    ]);
  });
});
