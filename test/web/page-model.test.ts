import { describe, expect, it } from 'vitest';
import { truncateMiddle } from '../../src/agent/actions/truncate-text.js';
import type { NoveltyCheck } from '../../src/explore/novelty.js';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';
import { budgetUsed } from '../../web/src/model/budget-used.js';
import { fullEditReason } from '../../web/src/model/edit-reason.js';
import { labelOf, noveltyLine, unfoundCitations } from '../../web/src/model/labels.js';
import { followsLog, runTotals, totalsFacts } from '../../web/src/model/run-header.js';
import { stepsOf } from '../../web/src/model/run-steps.js';
import { stepsUnderStatus } from '../../web/src/model/step-status.js';

function log(bodies: CodifyEventBody[]): CodifyEvent[] {
  return bodies.map((body, index) => ({
    ...body,
    seq: index + 1,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, index * 10)).toISOString(),
  }));
}

const start: CodifyEventBody = {
  type: 'run-start',
  runId: 'r',
  mode: 'implement',
  name: 'n',
  argv: [],
  models: {},
};
const call: CodifyEventBody = {
  type: 'llm-end',
  callId: 1,
  role: 'planner',
  model: 'scripted:a',
  messages: [],
  text: 'answer',
  usage: { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 0 },
  costUsd: 0.01,
  latencyMs: 5,
  attempts: 1,
};

describe('budgetUsed', () => {
  it("takes the agent's last tick where there is one", () => {
    const events = log([
      start,
      { type: 'budget-update', steps: 3, tokens: 9000, costUsd: 0.2, elapsedMs: 60_000 },
      call,
    ]);
    expect(budgetUsed(events)).toEqual({ steps: 3, tokens: 9000, costUsd: 0.2, elapsedMs: 60_000 });
  });

  it('measures a run without ticks (single-call) from its log', () => {
    const events = log([
      start,
      { type: 'step-start', step: 1 },
      call,
      { type: 'step-end', step: 1, action: 'single call' },
    ]);
    expect(budgetUsed(events)).toEqual({
      steps: 1,
      tokens: 1200,
      costUsd: 0.01,
      elapsedMs: 30_000,
    });
    expect(budgetUsed(log([start, { ...call, costUsd: null }])).costUsd).toBeNull();
  });
});

describe('the run header', () => {
  it("shows the run-end's totals (an evaluation's: every run it made), else the log's", () => {
    const recorded = {
      steps: 1,
      llmCalls: 14,
      inputTokens: 50_000,
      outputTokens: 8068,
      cachedInputTokens: 0,
      costUsd: 0,
      unpricedCalls: 14,
    };
    const ended = log([start, call, { type: 'run-end', status: 'completed', totals: recorded }]);
    expect(runTotals(ended)).toEqual(recorded);
    expect(totalsFacts(runTotals(ended)).slice(0, 3)).toEqual([
      '1 step',
      '14 model calls',
      '58.1k tokens',
    ]);
    expect(runTotals(log([start, call])).llmCalls).toBe(1);
    // A resumed run: the earlier end's totals are not the run's now.
    expect(
      runTotals(log([start, call, { type: 'run-end', status: 'stopped', totals: recorded }, start]))
        .llmCalls,
    ).toBe(1);
  });

  it('streams only while the run may still write', () => {
    expect(followsLog('running')).toBe(true);
    expect(followsLog('connecting')).toBe(true);
    for (const status of ['completed', 'stopped', 'failed', 'killed'])
      expect(followsLog(status)).toBe(false);
  });
});

describe('a step the run ended during', () => {
  it('is cut short by the end, not in progress', () => {
    const steps = stepsOf(
      log([
        start,
        { type: 'step-start', step: 1 },
        { type: 'step-end', step: 1, action: 'List Files' },
        { type: 'step-start', step: 2 },
        { type: 'run-end', status: 'stopped' },
      ]),
    );
    expect(steps.map((step) => [step.ended, step.cutShort])).toEqual([
      [true, undefined],
      [false, 'stopped'],
    ]);
  });

  it('is cut short when the process died without an end (killed), and only then', () => {
    const steps = stepsOf(
      log([
        start,
        { type: 'step-start', step: 1 },
        { type: 'step-end', step: 1, action: 'List Files' },
        { type: 'step-start', step: 2 },
      ]),
    );
    expect(stepsUnderStatus(steps, 'killed').map((step) => step.cutShort)).toEqual([
      undefined,
      'killed',
    ]);
    expect(stepsUnderStatus(steps, 'running').map((step) => step.cutShort)).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe('labels', () => {
  it('turns keys into words', () => {
    expect(labelOf('experimentPlan')).toBe('Experiment plan');
    expect(labelOf('five-seeds')).toBe('Five seeds');
    expect(labelOf('clarity')).toBe('Clarity');
  });

  it('names the closest work once in a novelty line', () => {
    const check: NoveltyCheck = {
      against: 'offline',
      verdict: 'novel',
      closest: { title: 'Mixup', source: 'related', similarity: 0.2134 },
      compared: 7,
      reason: 'the closest of 7 works, "Mixup", has similarity 0.2134 (below 0.5)',
    };
    expect(noveltyLine(check)).toEqual({
      verdict: 'novel',
      detail: ' · closest of 7: “Mixup” (similarity 0.21)',
    });
    const unknown: NoveltyCheck = {
      against: 'openalex',
      verdict: 'unknown',
      compared: 0,
      reason: 'the service did not answer',
    };
    expect(noveltyLine(unknown).detail).toBe(' — the service did not answer');
  });

  it('says why a novelty check is unknown, what an overlapping idea adds, and which citations were not found', () => {
    const tooFew: NoveltyCheck = {
      against: 'offline',
      verdict: 'unknown',
      closest: { title: 'Mixup', source: 'P1', similarity: 0.2134 },
      compared: 4,
      reason:
        'none of the 4 works compared reaches similarity 0.5, but 4 are fewer than the 10 a novelty verdict needs',
    };
    expect(noveltyLine(tooFew).detail).toBe(
      ' · closest of 4: “Mixup” (similarity 0.21) — none of the 4 works compared reaches similarity 0.5, but 4 are fewer than the 10 a novelty verdict needs',
    );
    const overlaps: NoveltyCheck = {
      against: 'openalex',
      verdict: 'overlaps',
      closest: { title: 'Same-class mixup', source: 'https://openalex.org/W9', similarity: 0.61 },
      compared: 12,
      reason: 'It draws the partner from the same class.',
      difference: 'a smaller alpha',
      citations: [
        { item: 'Mixup (Zhang 2018)', status: 'found' },
        { item: 'Jitter Networks (Doe 2031)', status: 'not-found', reason: 'no match' },
        { item: 'Offline work', status: 'unchecked', reason: 'unreachable' },
      ],
    };
    expect(noveltyLine(overlaps).detail).toBe(
      ' · closest of 12: “Same-class mixup” (similarity 0.61) — It draws the partner from the same class. — the idea adds: a smaller alpha',
    );
    expect(unfoundCitations(overlaps)).toEqual(['Jitter Networks (Doe 2031)']);
  });
});

describe('fullEditReason', () => {
  const instruction = `Rewrite the loop. ${'Explain each change. '.repeat(20)}Done.`;
  const events = log([
    start,
    {
      type: 'action-start',
      step: 1,
      action: 'Edit Script',
      input: { script_name: 'a.py', edit_instruction: instruction },
    },
  ]);

  it('finds the whole instruction of a reason the store cut', () => {
    expect(fullEditReason(`Edit Script: ${truncateMiddle(instruction, 200)}`, events)).toBe(
      `Edit Script: ${instruction}`,
    );
  });

  it('leaves a whole reason, or one no action matches, alone', () => {
    expect(fullEditReason('Edit Script: short', events)).toBeUndefined();
    expect(
      fullEditReason(`Edit Script: ${truncateMiddle(`Other. ${instruction}`, 200)}`, events),
    ).toBeUndefined();
  });
});
