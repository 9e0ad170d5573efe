import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../src/explore/experiments/render-report.js';
import type { ExperimentRecord } from '../../src/explore/experiments/run-experiments.js';
import type { SeedSummary } from '../../src/tasks/seeds/run-seeds.js';
import {
  experimentFigure,
  type ExperimentVerdict,
  measured,
  shortResult,
  verdictText,
} from '../../web/src/model/experiment-result.js';
import { formatNumber, formatSigned, plural } from '../../web/src/model/format-number.js';

function record(
  metric: Partial<NonNullable<ExperimentRecord['metric']>> | undefined,
  status: ExperimentRecord['status'] = 'ran',
): ExperimentRecord {
  return {
    idea: 'I2',
    title: 'an idea',
    hypothesis: 'it helps',
    judgeScore: 3.9,
    status,
    reason: status === 'ran' ? 'ran' : 'no budget',
    ...(metric === undefined
      ? {}
      : {
          metric: {
            name: 'accuracy',
            goal: 'max',
            source: 'plan',
            value: null,
            baseline: 0.6605,
            improvement: null,
            ...metric,
          },
        }),
  };
}

const seeds = (values: number[], baseline: number, margin: number): SeedSummary => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const improvement = mean - baseline;
  return {
    runs: values.map((value, seed) => ({ seed, value })) as SeedSummary['runs'],
    mean,
    sd: 0.057,
    improvement,
    margin,
    effect: improvement - margin,
    beyondMargin: improvement - margin > 0,
  };
};

// The issue's case: one run at 0.6852 (+0.0247), the seeds' mean 0.6235, worse than 0.6605.
const seededWorse = record({
  value: 0.6852,
  improvement: 0.0247,
  seeds: seeds([0.6852, 0.5912, 0.5941], 0.6605, 0.066),
});
const seededWithin = record({
  value: 0.7,
  improvement: 0.04,
  seeds: seeds([0.67, 0.68, 0.66], 0.6605, 0.05),
});
const seededBeyond = record({
  value: 0.99,
  improvement: 0.33,
  seeds: seeds([0.99, 0.98, 1], 0.6605, 0.012),
});
const single = (improvement: number | null) =>
  record({ value: improvement === null ? null : 0.6605 + improvement, improvement });

describe('one value and one verdict for an experiment', () => {
  it("shows the seeds' mean, not the single run, wherever seeds ran", () => {
    const figure = experimentFigure(seededWorse);
    expect(figure.value).toBeCloseTo(0.6235, 4);
    expect(figure.improvement).toBeLessThan(0);
    expect(measured(seededWorse)).toContain('accuracy 0.6235 ± 0.057 over 3 seeds');
    expect(measured(seededWorse)).toContain('(−0.037, within the margin 0.066)');
    expect(shortResult(seededWorse)).toBe('0.6235 mean (−0.037)');
    expect(shortResult(seededWorse)).not.toContain('0.6852');
  });

  it.each([
    ['seeds worse than the baseline', seededWorse, 'worse'],
    ['seeds better but within the margin', seededWithin, 'within-margin'],
    ['seeds beyond the margin', seededBeyond, 'supported'],
    ['a single run better', single(0.02), 'supported'],
    ['a single run worse', single(-0.02), 'worse'],
    ['a single run equal', single(0), 'equal'],
    ['a run that printed no value', single(null), 'not-measured'],
    ['a skipped experiment', record(undefined, 'skipped'), 'not-tested'],
  ] as const)('judges %s as the report does', (_, experiment, verdict: ExperimentVerdict) => {
    expect(experimentFigure(experiment).verdict).toBe(verdict);
    const report = verdictOf(experiment);
    if (verdict === 'supported') expect(report).toMatch(/^supported/);
    else expect(report).toMatch(/^not (supported|measured|tested)/);
    if (verdict !== 'not-tested' && verdict !== 'not-measured') {
      expect(report).toContain(verdictText[verdict].replace('equal to the baseline', 'equal'));
    }
  });
});

describe('number formatting', () => {
  it('shows four significant digits and signed differences', () => {
    expect(formatNumber(0.333333333)).toBe('0.3333');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(58068)).toBe('58068');
    expect(formatSigned(0.333333333)).toBe('+0.3333');
    expect(formatSigned(-0.037)).toBe('−0.037');
    expect(formatSigned(0)).toBe('±0');
    expect(measured(single(0.333333333))).toBe(
      "accuracy 0.9938 vs the baseline's 0.6605 (+0.3333)",
    );
  });

  it('says 1 step, 2 steps', () => {
    expect(plural(1, 'step')).toBe('1 step');
    expect(plural(2, 'step')).toBe('2 steps');
    expect(plural(0, 'entry', 'entries')).toBe('0 entries');
  });
});
