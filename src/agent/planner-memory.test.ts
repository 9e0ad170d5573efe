import { describe, expect, it } from 'vitest';
import { entryStep, lastFoldedStep, plannerHistory, plannerLog } from './planner-memory.js';
import { plannerPrompt } from './planner-prompt.js';

const entry = (step: number, words = 40): string =>
  `## Step ${step}: Execute Script\n${Array.from({ length: words }, (_, index) => `fact${step}_${index}`).join(' ')}`;

describe('the research log the planner sees', () => {
  it('gives each step once: steps shown in full are left out of the log', () => {
    const entries = [1, 2, 3, 4, 5].map((step) => entry(step));
    const shown = plannerLog(entries, [3, 4, 5]);
    expect(shown.map(entryStep)).toEqual([1, 2]);
    expect(plannerLog(entries.slice(0, 1), [1])).toEqual([]);
    // a human comment is not a step, so it stays
    expect(
      plannerLog([...entries, '## Human comment after step 5\nuse a smaller lr'], [4, 5]),
    ).toHaveLength(4);
  });

  it('keeps recent older entries whole and condenses the oldest into blocks', () => {
    const entries = Array.from({ length: 30 }, (_, index) => entry(index + 1));
    const shown = plannerLog(entries, [28, 29, 30], { wholeBudget: 2000, blockChars: 300 });
    const whole = shown.filter((text) => !text.includes('(condensed)'));
    const blocks = shown.filter((text) => text.includes('(condensed)'));
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.at(-1)).toBe(entries[26]);
    // blocks double in size going back: the newest condensed block covers 2 steps
    expect(blocks.at(-1)).toMatch(/^## Steps \d+–\d+ \(condensed\)/);
    const covered = blocks.map((block) => {
      const [, first, last] = /^## Steps (\d+)–(\d+)/.exec(block) ?? [];
      return Number(last) - Number(first) + 1;
    });
    expect(covered.at(-1)).toBe(2);
    for (let index = 1; index < covered.length - 1; index += 1) {
      expect(covered[index - 1]).toBeGreaterThanOrEqual(covered[index] ?? 0);
    }
    // every older step is accounted for once: whole, as a condensed line, or counted
    const text = shown.join('\n');
    const named = text.match(/^(?:## Step \d+:|- \d+: )/gm) ?? [];
    const counted = [...text.matchAll(/^- \((\d+) earlier steps?/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(named.length + counted).toBe(27);
    for (const block of blocks) expect(block.length).toBeLessThan(300 + 120);
  });

  it('grows with the logarithm of the steps, not linearly', () => {
    const size = (steps: number): number =>
      plannerLog(
        Array.from({ length: steps }, (_, index) => entry(index + 1)),
        [steps - 2, steps - 1, steps],
      ).join('\n\n').length;
    const at = [50, 100, 200, 400, 800].map(size);
    // each doubling of the steps adds about one condensed block (600 characters and its heading)
    for (let index = 1; index < at.length; index += 1) {
      expect((at[index] ?? 0) - (at[index - 1] ?? 0)).toBeLessThan(1000);
    }
    // 16 times the steps, not even one and a half times the characters
    expect(at[4] ?? 0).toBeLessThan(1.5 * (at[0] ?? 0));
  });

  it('keeps the history append-only: the history at each step is a prefix of the next', () => {
    const entries = Array.from({ length: 40 }, (_, index) => entry(index + 1));
    const at = (steps: number): string[] =>
      plannerHistory(
        entries.slice(0, steps),
        [steps - 2, steps - 1, steps].filter((step) => step > 0),
        1_000_000,
      );
    expect(at(3)).toEqual([]);
    expect(at(4)).toEqual([entries[0]]);
    for (let steps = 4; steps < 40; steps += 1) {
      const now = at(steps);
      const next = at(steps + 1);
      expect(next.slice(0, now.length)).toEqual(now);
      expect(next).toHaveLength(now.length + 1);
    }
  });

  it('condenses a history past its limit once, then grows it append-only again', () => {
    const entries = Array.from({ length: 60 }, (_, index) => entry(index + 1));
    const at = (steps: number): string[] =>
      plannerHistory(entries.slice(0, steps), [steps - 2, steps - 1, steps], 8000, {
        wholeBudget: 2000,
        blockChars: 300,
      });
    let rebases = 0;
    for (let steps = 4; steps < 60; steps += 1) {
      const now = at(steps);
      const next = at(steps + 1);
      if (next.slice(0, now.length).join('\u0000') !== now.join('\u0000')) rebases += 1;
      expect(next.join('').length).toBeLessThan(8000 + 600);
    }
    // each entry is about 500 characters: the history condenses every dozen steps or so
    expect(rebases).toBeGreaterThan(1);
    expect(rebases).toBeLessThan(10);
    expect(at(59).some((text) => text.includes('(condensed)'))).toBe(true);
  });

  it('folds the steps in full into the log three at a time, once six are shown', () => {
    const folded = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12].map((done) => lastFoldedStep(done, 3));
    expect(folded).toEqual([0, 0, 0, 0, 0, 0, 3, 3, 3, 6, 9]);
    for (let done = 0; done < 40; done += 1) {
      const inFull = done - lastFoldedStep(done, 3);
      expect(inFull).toBeLessThanOrEqual(5);
      expect(inFull).toBeGreaterThanOrEqual(Math.min(done, 3));
    }
  });

  it('puts the folded steps in the log block and the later ones in full in the next block', () => {
    const records = [1, 2, 3, 4, 5, 6, 7].map((step) => ({
      step,
      answer: `Action: List Files ${step}`,
      observation: 'a.py',
    }));
    const { blocks, prompt } = plannerPrompt({
      step: 8,
      problem: 'Do it.',
      actions: [],
      researchLog: records.map((record) => entry(record.step)),
      recentSteps: records.slice(-6) as never,
      shortTermSteps: 3,
      budgets: [],
      notes: [],
      comment: null,
    });
    const [history = [], inFull = []] = blocks;
    expect(history[0]).toMatch(/^# Research log/);
    expect(history.slice(1)).toEqual([entry(1), entry(2), entry(3)]);
    expect(inFull[0]).toMatch(/^# Previous steps in full/);
    expect(inFull.slice(1).map((text) => /^## Step (\d+)/.exec(text)?.[1])).toEqual([
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(prompt).toMatch(/^# Budgets/);
    expect(prompt).not.toContain('List Files');
  });
});
