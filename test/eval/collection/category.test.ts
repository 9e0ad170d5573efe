import { describe, expect, it } from 'vitest';
import type { ImplementResult } from '../../../src/agent/final-result.js';
import { categorize, isFixedSeedGain } from '../../../src/eval/collection/category.js';
import { pairedEffect } from '../../../src/tasks/seeds/paired-effect.js';
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
  const seeds = (starter: number[], final: number[], goal: 'max' | 'min' = 'max') => ({
    effect: pairedEffect(
      starter.map((value, seed) => ({ seed, value })),
      final.map((value, seed) => ({ seed, value })),
      goal,
    ),
    finalFailed: [],
  });

  it('A only when the paired effect across seeds clears its margin', () => {
    const input = { result: result({}), starter: 0.7, margin: 0 };
    expect(categorize({ ...input, seeds: seeds([0.7, 0.71, 0.69], [0.8, 0.81, 0.79]) })).toBe('A');
    // One value on every seed, within the starter's seed spread (sd 0.05, margin 0.1): no.
    expect(categorize({ ...input, seeds: seeds([0.7, 0.75, 0.8], [0.83, 0.83, 0.83]) })).toBe('B');
    // Gains that differ from seed to seed as much as the seeds do: no.
    expect(categorize({ ...input, seeds: seeds([0.7, 0.75, 0.8], [0.8, 0.7, 0.9]) })).toBe('B');
    expect(categorize({ ...input, seeds: seeds([0.7, 0.7], [0.7, 0.7]) })).toBe('B');
  });

  it('B for a gain on one fixed seed however large, flagged as such', () => {
    const fixed = { result: result({}), starter: 0.7, margin: 0.05 };
    expect(categorize(fixed)).toBe('B');
    expect(isFixedSeedGain(fixed)).toBe(true);
    expect(isFixedSeedGain({ ...fixed, margin: 0.1 })).toBe(false);
    expect(isFixedSeedGain({ ...fixed, starter: 0.8, margin: 0 })).toBe(false);
  });

  it('C when the final script fails on a seed the starter ran on', () => {
    const outcome = { ...seeds([0.7, 0.7], [0.9, 0.9]), finalFailed: [2] };
    expect(categorize({ result: result({}), starter: 0.7, margin: 0, seeds: outcome })).toBe('C');
  });

  it('B when fewer than two seeds paired', () => {
    const outcome = { effect: null, finalFailed: [] };
    expect(categorize({ result: result({}), starter: 0.7, margin: 0, seeds: outcome })).toBe('B');
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
    const across = seeds([0.3, 0.31, 0.29], [0.2, 0.21, 0.19], 'min');
    expect(categorize({ result: loss, starter: 0.3, margin: 0, seeds: across })).toBe('A');
    expect(isFixedSeedGain({ result: loss, starter: 0.3, margin: 0.05 })).toBe(true);
    expect(isFixedSeedGain({ result: loss, starter: 0.1, margin: 0 })).toBe(false);
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
