import { describe, expect, it } from 'vitest';
import { describePaired } from '../../src/explore/experiments/judge-hypothesis.js';
import { pairResults } from '../../src/explore/experiments/paired-results.js';
import { planMetric } from '../../src/explore/experiments/metric-pattern.js';
import type { SeedRun } from '../../src/tasks/seeds/run-seeds.js';
import { ideaCard } from './explore-fixtures.js';

const run = (seed: number, metrics: Record<string, number>, exitCode = 0): SeedRun => ({
  seed,
  value: metrics.accuracy ?? null,
  metrics,
  exitCode,
  timedOut: false,
  outputPath: '/nonexistent/output.txt',
});

describe('pairResults: the idea and the baseline seed by seed, per metric', () => {
  it('pairs the experiment metric, the plan metric by its goal and a structured-only metric as idea − baseline', () => {
    const card = ideaCard('Feature noise');
    const idea = [
      run(0, { accuracy: 0.7, 'log-loss': 0.5, epochs: 12 }),
      run(1, { accuracy: 0.8, 'log-loss': 0.4, epochs: 10 }),
      run(2, { accuracy: 0.1 }, 1),
    ];
    const baseline = [
      run(0, { accuracy: 0.6, 'log-loss': 0.6, epochs: 10 }),
      run(1, { accuracy: 0.6, 'log-loss': 0.6, epochs: 10 }),
      run(2, { accuracy: 0.6, 'log-loss': 0.6, epochs: 10 }),
    ];
    const paired = pairResults(
      card,
      planMetric({ name: 'accuracy', direction: 'max' }),
      idea,
      baseline,
    );
    expect(paired.seeds).toEqual([0, 1, 2]);
    expect(paired.metrics.map((metric) => [metric.name, metric.goal, metric.primary])).toEqual([
      ['accuracy', 'max', true],
      ['log-loss', 'min', false],
      ['epochs', null, false],
    ]);
    const [accuracy, logLoss, epochs] = paired.metrics;
    // The failed seed 2 pairs with nothing: its value does not count.
    expect(accuracy?.idea.map((entry) => entry.value)).toEqual([0.7, 0.8, null]);
    expect(accuracy?.effect?.unpaired).toEqual([2]);
    expect(accuracy?.effect?.pairs.map((pair) => pair.difference)).toEqual([0.1, 0.2]);
    expect(accuracy?.effect?.effect).toBeCloseTo(0.15, 9);
    // t(97.5 %, 1) = 12.706: two pairs are far from certain.
    expect(accuracy?.effect?.margin).toBeCloseTo((12.706 * Math.sqrt(0.005)) / Math.sqrt(2), 6);
    expect(accuracy?.effect?.beyondMargin).toBe(false);
    // Lower log-loss is better: baseline − idea.
    expect(logLoss?.effect?.pairs.map((pair) => pair.difference)).toEqual([0.1, 0.2]);
    expect(epochs?.effect?.pairs.map((pair) => pair.difference)).toEqual([2, 0]);
    if (epochs === undefined) throw new Error('no epochs metric');
    expect(describePaired(epochs)).toContain('no goal given: plain difference');
  });

  it('a single seed gives the means but no paired effect', () => {
    const paired = pairResults(
      ideaCard('x'),
      planMetric({ name: 'accuracy', direction: 'max' }),
      [run(0, { accuracy: 0.7 })],
      [run(0, { accuracy: 0.6 })],
    );
    expect(paired.metrics).toHaveLength(1);
    expect(paired.metrics[0]).toMatchObject({ ideaMean: 0.7, baselineMean: 0.6, effect: null });
    const [only] = paired.metrics;
    if (only === undefined) throw new Error('no metric');
    expect(describePaired(only)).toContain('no paired effect');
  });

  it("the experiment's metric that the baseline never printed is still described against it", () => {
    const paired = pairResults(
      ideaCard('x'),
      planMetric({ name: 'accuracy', direction: 'max' }),
      [run(0, { accuracy: 0.7 }), run(1, { accuracy: 0.8 })],
      [run(0, {}, 1), run(1, {}, 1)],
    );
    const [accuracy] = paired.metrics;
    if (accuracy === undefined) throw new Error('no metric');
    expect(describePaired(accuracy)).toContain(
      "- accuracy (the experiment's metric) (goal max): idea mean 0.75, baseline mean none; no paired effect",
    );
  });

  it("a metric the baseline never prints is described as the idea's values alone", () => {
    const card = ideaCard('x');
    const paired = pairResults(
      { ...card, experimentPlan: { ...card.experimentPlan, metrics: [] } },
      planMetric({ name: 'accuracy', direction: 'max' }),
      [run(0, { accuracy: 0.7, lambda: 0.1 }), run(1, { accuracy: 0.8, lambda: 0 })],
      [run(0, { accuracy: 0.6 }), run(1, { accuracy: 0.6 })],
    );
    const lambda = paired.metrics.find((metric) => metric.name === 'lambda');
    if (lambda === undefined) throw new Error('no lambda metric');
    expect(describePaired(lambda)).toBe(
      "- lambda (no goal given): the idea's script only, the baseline prints none; mean 0.05; per seed 0: 0.1, 1: 0.",
    );
  });
});
