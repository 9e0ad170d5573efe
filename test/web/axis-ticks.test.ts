import { describe, expect, it } from 'vitest';
import { axisTicks } from '../../web/src/model/axis-ticks.js';

describe('axisTicks', () => {
  it('labels every execution of a short run', () => {
    expect(axisTicks(1)).toEqual([1]);
    expect(axisTicks(5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('labels at most eight round executions of a long one, far enough apart', () => {
    for (const count of [9, 37, 300, 1000, 12_345]) {
      const ticks = axisTicks(count);
      expect(ticks.length, String(count)).toBeLessThanOrEqual(9);
      expect(ticks[0]).toBe(1);
      expect(Math.max(...ticks)).toBeLessThanOrEqual(count);
      const gaps = ticks.slice(1).map((tick, index) => tick - (ticks[index] ?? 0));
      // No two labels nearer than a quarter of the step between the others.
      expect(Math.min(...gaps), String(count)).toBeGreaterThanOrEqual(Math.max(...gaps) / 4);
    }
    expect(axisTicks(300)).toEqual([1, 50, 100, 150, 200, 250, 300]);
  });
});
