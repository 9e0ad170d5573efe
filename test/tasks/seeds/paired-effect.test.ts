import { describe, expect, it } from 'vitest';
import { pairedEffect, type SeedValue } from '../../../src/tasks/seeds/paired-effect.js';
import { studentT975 } from '../../../src/tasks/seeds/student-t.js';

const values = (list: (number | null)[], first = 0): SeedValue[] =>
  list.map((value, index) => ({ seed: first + index, value }));

describe('pairedEffect', () => {
  it('pairs by seed and takes the mean and spread of the differences', () => {
    // Differences 0.10, 0.12, 0.08, 0.10: mean 0.10, sd √(0.0008/3) ≈ 0.01633.
    const effect = pairedEffect(
      values([0.5, 0.6, 0.7, 0.55]),
      values([0.6, 0.72, 0.78, 0.65]),
      'max',
    );
    expect(effect?.effect).toBeCloseTo(0.1, 9);
    expect(effect?.differenceSd).toBeCloseTo(Math.sqrt(0.0008 / 3), 9);
    // t(0.975, 3) = 3.182 over √4.
    expect(effect?.pairedMargin).toBeCloseTo((3.182 * Math.sqrt(0.0008 / 3)) / 2, 9);
    // The starter's seeds spread far more (sd ≈ 0.0854), but the gain holds on every seed:
    // pairing takes that spread out, and the effect clears the paired margin.
    expect(effect?.starterSd).toBeCloseTo(0.085391, 5);
    expect(effect?.seedMargin).toBeCloseTo(2 * 0.085391, 5);
    expect(effect?.finalIgnoresSeed).toBe(false);
    expect(effect?.margin).toBe(effect?.pairedMargin);
    expect(effect?.beyondMargin).toBe(true);
  });

  it('finds no effect in a seed change: the final is the starter on other seeds', () => {
    // Seeds 0–5 of a noisy starter; the "solution" runs seed i + 1 (seed 5 wraps to 0).
    const starter = [0.7188, 0.7258, 0.7468, 0.7019, 0.7008, 0.6764];
    const shifted = [...starter.slice(1), starter[0] ?? 0];
    const effect = pairedEffect(values(starter), values(shifted), 'max');
    expect(effect?.effect).toBeCloseTo(0, 9);
    expect(effect?.beyondMargin).toBe(false);
  });

  it("holds a final that prints one value on every seed to the starter's seed spread", () => {
    // Seed 2 hand-picked: 0.7468, against starters 0.7188 … 0.7008 (sd ≈ 0.019).
    const starter = values([0.7188, 0.7258, 0.7468, 0.7019, 0.7008]);
    const lucky = pairedEffect(starter, values([0.7468, 0.7468, 0.7468, 0.7468, 0.7468]), 'max');
    expect(lucky?.finalIgnoresSeed).toBe(true);
    expect(lucky?.effect).toBeCloseTo(0.02798, 9);
    // Beyond the paired margin (2.776 × 0.019 / √5 ≈ 0.0236), within the seed margin (0.038).
    expect(lucky?.pairedMargin).toBeCloseTo(0.023576, 5);
    expect(lucky?.margin).toBe(lucky?.seedMargin);
    expect(lucky?.margin).toBeCloseTo(0.037982, 5);
    expect(lucky?.beyondMargin).toBe(false);
  });

  it('matches seeds by number, not by position, and leaves out seeds without a value', () => {
    const starter: SeedValue[] = [
      { seed: 7, value: 0.5 },
      { seed: 3, value: 0.4 },
      { seed: 9, value: null },
    ];
    const final: SeedValue[] = [
      { seed: 3, value: 0.6 },
      { seed: 7, value: 0.7 },
      { seed: 9, value: 0.9 },
    ];
    const effect = pairedEffect(starter, final, 'max');
    expect(effect?.pairs.map((pair) => [pair.seed, pair.difference])).toEqual([
      [3, 0.2],
      [7, 0.2],
    ]);
    expect(effect?.unpaired).toEqual([9]);
    // The same gain on both seeds: no spread to doubt it.
    expect(effect?.pairedMargin).toBe(0);
    expect(effect?.margin).toBe(0);
    expect(effect?.beyondMargin).toBe(true);
  });

  it('signs the effect by the goal: lower is better for min', () => {
    const effect = pairedEffect(values([1.0, 1.0, 1.0]), values([0.8, 0.8, 0.8]), 'min');
    expect(effect?.effect).toBeCloseTo(0.2, 9);
    expect(effect?.beyondMargin).toBe(true);
    const worse = pairedEffect(values([1.0, 1.0, 1.0]), values([0.8, 0.8, 0.8]), 'max');
    expect(worse?.effect).toBeCloseTo(-0.2, 9);
    expect(worse?.beyondMargin).toBe(false);
  });

  it('takes an extra margin (repeat runs of one seed) when it is the largest', () => {
    const effect = pairedEffect(values([0.5, 0.5]), values([0.55, 0.55]), 'max', 0.06);
    expect(effect?.margin).toBe(0.06);
    expect(effect?.beyondMargin).toBe(false);
  });

  it('gives no verdict from fewer than two pairs', () => {
    expect(pairedEffect(values([0.5]), values([0.9]), 'max')).toBeNull();
    expect(pairedEffect(values([0.5, null]), values([0.9, 0.9]), 'max')).toBeNull();
  });

  it('does not count an effect equal to the margin as beyond it', () => {
    // 0.6 − 0.5 in floating point is 0.09999999999999998: equal to 0.1 up to float error.
    expect(pairedEffect(values([0.5, 0.5]), values([0.6, 0.6]), 'max', 0.1)?.beyondMargin).toBe(
      false,
    );
    expect(pairedEffect(values([0.5, 0.5]), values([0.6, 0.6]), 'max', 0.099)?.beyondMargin).toBe(
      true,
    );
  });
});

describe('studentT975', () => {
  it('is wide for few seeds and tends to the normal quantile', () => {
    expect(studentT975(1)).toBe(12.706);
    expect(studentT975(4)).toBe(2.776);
    expect(studentT975(30)).toBe(2.042);
    expect(studentT975(200)).toBe(1.96);
    expect(() => studentT975(0)).toThrow(RangeError);
  });
});
