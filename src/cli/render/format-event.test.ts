import { describe, expect, it } from 'vitest';
import { formatTimeline } from './format-event.js';
import { formatCost, formatDuration, formatTokens } from './format-values.js';
import { sampleRun } from './sample-events.test-helper.js';

describe('formatTimeline', () => {
  it('shows one line per meaningful event with its offset from the start', () => {
    expect(formatTimeline(sampleRun)).toEqual([
      '+00:00.0  run implement "moe"',
      '+00:00.1  step 1',
      '+00:02.2    llm planner openai:gpt-4o 12.3k→321 tok $0.0342 2.1s',
      '+00:14.6    exec train.py --epochs 1 → exit 0 in 12.3s metric 0.913',
      '+00:14.7    action Execute Script 12.4s: ran train.py: exit 0',
      '+00:15.0  step 2',
      '+00:15.1    guard duplicate-action refused: same action twice',
      '+01:15.5    exec train.py → timed out in 1m00s',
      '+01:15.6  budget steps exhausted: step budget of 2 used up',
      '+01:15.7  run budget-exhausted: forced final answer · 1 step, 12.7k tokens, $0.0342',
    ]);
  });
});

describe('explore and feedback events', () => {
  it('each get a line: quotes checked, reviews, novelty verdicts, questions waiting', () => {
    const base = { seq: 1, time: '2026-11-24T10:00:00.000Z' };
    const lines = formatTimeline([
      { ...base, type: 'run-start', runId: 'r', mode: 'explore', name: 'p', argv: [], models: {} },
      {
        ...base,
        type: 'quote-check',
        checked: 5,
        unverified: [{ where: 'gaps[1]', paper: 'P1', quote: 'q', reason: 'not in P1' }],
      },
      { ...base, type: 'idea-review', idea: 2, round: 0, reviewers: 3, average: 3.8667 },
      {
        ...base,
        type: 'idea-review',
        idea: 1,
        round: 0,
        reviewers: 2,
        average: 3.1,
        meta: 3,
        withinOne: 0.8,
        failed: 1,
      },
      {
        ...base,
        type: 'novelty-check',
        idea: 1,
        against: 'offline',
        verdict: 'overlaps',
        reason: 'similar',
        closest: { title: 'Mixup', source: 'related.txt', similarity: 0.61 },
      },
      {
        ...base,
        type: 'novelty-check',
        idea: 1,
        against: 'semantic-scholar',
        verdict: 'unknown',
        reason: 'unreachable: connect ECONNREFUSED',
      },
      {
        ...base,
        type: 'feedback-request',
        id: 'step-3',
        kind: 'answer',
        title: 'After step 3',
        questions: ['Which learning rate?'],
        waiting: true,
      },
    ]);
    expect(lines.slice(1).map((line) => line.slice(10))).toEqual([
      '  quotes 4/5 found in the papers; not found: gaps[1]',
      '  review I2 round 0: 3.87 (3 reviewers)',
      '  review I1 round 0: 3.10 (2 reviewers, 80% of criteria within one point, 1 failed); meta-review 3.00',
      '  novelty I1 against offline: overlaps; closest "Mixup" (0.61)',
      '  novelty I1 against semantic-scholar: unknown: unreachable: connect ECONNREFUSED',
      '  waiting for an answer (answer): After step 3 · 1 question',
    ]);
  });
});

describe('values', () => {
  it('marks a partly unknown cost as a lower bound', () => {
    expect(formatCost({ costUsd: 0.0123, unpricedCalls: 1, llmCalls: 3 })).toBe('$0.0123+');
    expect(formatCost({ costUsd: 0, unpricedCalls: 3, llmCalls: 3 })).toBe('unknown');
    expect(formatCost({ costUsd: 0, unpricedCalls: 0, llmCalls: 0 })).toBe('$0');
    expect(formatCost({ costUsd: 2.5, unpricedCalls: 0, llmCalls: 9 })).toBe('$2.50');
  });
  it('shortens tokens and durations', () => {
    expect(formatTokens(999)).toBe('999');
    expect(formatTokens(1500)).toBe('1.5k');
    expect(formatTokens(2_340_000)).toBe('2.34M');
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(245_000)).toBe('4m05s');
    expect(formatDuration(7_380_000)).toBe('2h03m');
  });
});
