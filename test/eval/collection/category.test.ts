import { describe, expect, it } from 'vitest';
import type { ImplementResult } from '../../../src/agent/final-result.js';
import { categorize } from '../../../src/eval/collection/category.js';
import { starterNoise } from '../../../src/eval/collection/noise-margin.js';

function result(overrides: Partial<ImplementResult>): ImplementResult {
  return {
    outcome: 'completed',
    reason: '',
    strategy: 'agent',
    task: '/t',
    runId: 'r',
    runDir: '/r',
    finalScript: '/r/methodology_implementation.py',
    workspaceScript: 'methodology_implementation.py',
    ran: true,
    execution: { exitCode: 0, timedOut: false, outputPath: null, runs: 1, durationMs: 10 },
    metric: {
      name: 'accuracy',
      goal: 'max',
      value: 0.8,
      starter: 0.7,
      starterSource: 'measured',
      values: [0.8],
      starterValues: [0.7],
      sd: 0,
      starterSd: 0,
      margin: 0,
      improved: true,
    },
    linesEdited: { added: 1, removed: 0 },
    steps: 1,
    tokens: { input: 0, output: 0, cached: 0, total: 0 },
    costUsd: 0,
    wallTimeMs: 0,
    ...overrides,
  };
}

describe('categorize', () => {
  it('A only when the improvement clears the noise margin', () => {
    expect(categorize({ result: result({}), starter: 0.7, margin: 0.05 })).toBe('A');
    expect(categorize({ result: result({}), starter: 0.7, margin: 0.1 })).toBe('B');
    expect(categorize({ result: result({}), starter: 0.8, margin: 0 })).toBe('B');
  });

  it('follows the goal: a lower loss is an improvement', () => {
    const loss = result({
      metric: {
        name: 'loss',
        goal: 'min',
        value: 0.2,
        starter: 0.3,
        starterSource: null,
        values: [0.2],
        starterValues: [0.3],
        sd: 0,
        starterSd: 0,
        margin: 0,
        improved: true,
      },
    });
    expect(categorize({ result: loss, starter: 0.3, margin: 0.05 })).toBe('A');
    expect(categorize({ result: loss, starter: 0.1, margin: 0 })).toBe('B');
  });

  it('C when the final code fails or prints no metric; D when there is none', () => {
    expect(categorize({ result: result({ ran: false }), starter: 0.7, margin: 0 })).toBe('C');
    const silent = result({
      metric: {
        name: 'accuracy',
        goal: 'max',
        value: null,
        starter: 0.7,
        starterSource: null,
        values: [],
        starterValues: [0.7],
        sd: null,
        starterSd: 0,
        margin: null,
        improved: null,
      },
    });
    expect(categorize({ result: silent, starter: 0.7, margin: 0 })).toBe('C');
    expect(
      categorize({ result: result({ finalScript: null, ran: false }), starter: 0.7, margin: 0 }),
    ).toBe('D');
    expect(categorize({ result: undefined, starter: 0.7, margin: 0 })).toBe('D');
  });

  it('B for a task without a metric or an unknown starter: nothing shows an improvement', () => {
    expect(categorize({ result: result({ metric: null }), starter: null, margin: 0 })).toBe('B');
    expect(categorize({ result: result({}), starter: null, margin: 0 })).toBe('B');
  });
});

describe('starterNoise', () => {
  const trial = (metric: number | null, exitCode = 0) => ({
    item: 't',
    trial: 1,
    metric,
    exitCode,
    timedOut: false,
    durationMs: 1,
  });

  it('is two sample standard deviations of the runs that printed the metric', () => {
    const noise = starterNoise([trial(0.5), trial(0.6), trial(0.7), trial(null), trial(0.9, 1)]);
    expect(noise.measured).toBe(3);
    expect(noise.mean).toBeCloseTo(0.6);
    expect(noise.std).toBeCloseTo(0.1);
    expect(noise.margin).toBeCloseTo(0.2);
  });

  it('is 0 for a deterministic starter or a single run', () => {
    expect(starterNoise([trial(0.5), trial(0.5)]).margin).toBe(0);
    expect(starterNoise([trial(0.5)])).toMatchObject({ std: null, margin: 0 });
    expect(starterNoise([])).toMatchObject({ mean: null, margin: 0 });
  });
});
