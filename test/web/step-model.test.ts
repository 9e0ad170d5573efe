import { describe, expect, it } from 'vitest';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';
import { stepsOf } from '../../web/src/model/run-steps.js';
import { StepModel } from '../../web/src/model/step-model.js';

function log(bodies: CodifyEventBody[]): CodifyEvent[] {
  return bodies.map((body, index) => ({
    ...body,
    seq: index + 1,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
  }));
}

function stepBodies(step: number, action: string): CodifyEventBody[] {
  return [
    { type: 'step-start', step },
    { type: 'llm-start', callId: step * 10, role: 'planner', model: 'scripted:a' },
    { type: 'planner-answer', step, level: 0, valid: false, error: 'no Action' },
    {
      type: 'planner-answer',
      step,
      level: 0,
      valid: true,
      fields: { Reflection: `r${step}`, Thought: `t${step}` },
    },
    { type: 'action-start', step, action, input: { step } },
    {
      type: 'action-end',
      step,
      action,
      ok: true,
      observation: `observed ${step}`,
      display: `observed ${step}`,
      durationMs: 5,
    },
    { type: 'budget-update', steps: step, tokens: 100 * step, costUsd: null, elapsedMs: 10 },
    { type: 'step-end', step, action },
  ];
}

const run = log([
  { type: 'run-start', runId: 'r', mode: 'implement', name: 'n', argv: [], models: {} },
  ...stepBodies(1, 'List Files'),
  ...stepBodies(2, 'Execute Script'),
  { type: 'step-start', step: 3 },
  { type: 'llm-start', callId: 30, role: 'planner', model: 'scripted:a' },
  { type: 'run-end', status: 'stopped' },
  // Resumed: step 3 is done again from its start.
  { type: 'run-start', runId: 'r', mode: 'implement', name: 'n', argv: [], models: {} },
  ...stepBodies(3, 'Edit Script'),
  ...stepBodies(4, 'Final Answer'),
]);

describe('StepModel', () => {
  it('built one event at a time, gives the steps read from the whole log', () => {
    const model = new StepModel();
    for (const event of run) model.apply(event);
    expect(model.steps).toEqual(stepsOf(run));
    expect(model.steps.map((step) => [step.step, step.action, step.ended])).toEqual([
      [1, 'List Files', true],
      [2, 'Execute Script', true],
      [3, 'Edit Script', true],
      [4, 'Final Answer', true],
    ]);
    // The redone step 3 is the second attempt only: one call, not the stopped one's too.
    expect(model.steps[2]?.callIds).toEqual([30]);
    expect(model.steps[0]?.invalidAnswers).toEqual([{ level: 0, error: 'no Action' }]);
    expect(model.applied).toBe(run.length);
  });

  it('gives the same steps whatever batches the events arrive in', () => {
    for (const batch of [1, 3, 7, run.length]) {
      const model = new StepModel();
      for (let start = 0; start < run.length; start += batch) {
        model.applyAll(run.slice(start, start + batch));
        // Every intermediate state is the state of the log read so far.
        expect(model.steps).toEqual(stepsOf(run.slice(0, start + batch)));
      }
    }
  });

  it('keeps the objects of the steps an event did not change, and the list while none changed', () => {
    const model = new StepModel();
    const endOfStep2 = run.findIndex((event) => event.type === 'step-end' && event.step === 2);
    model.applyAll(run.slice(0, endOfStep2 + 1));
    const before = model.steps;
    const [first, second] = before;
    // An event no step shows (a budget tick outside a step would be another) leaves all as is.
    model.apply({
      ...run[0],
      seq: 999,
      type: 'log',
      level: 'info',
      message: 'hello',
    } as CodifyEvent);
    expect(model.steps).toBe(before);
    // Step 3's events make new objects for step 3 only.
    const step3 = run.slice(endOfStep2 + 1, endOfStep2 + 3);
    model.applyAll(step3);
    expect(model.steps).not.toBe(before);
    expect(model.steps[0]).toBe(first);
    expect(model.steps[1]).toBe(second);
    const third = model.steps[2];
    model.apply({
      ...run[0],
      seq: 1000,
      type: 'guard-refusal',
      step: 3,
      guard: 'loop',
      message: 'same action three times',
    } as CodifyEvent);
    expect(model.steps[2]).not.toBe(third);
    expect(model.steps[2]?.refusals).toHaveLength(1);
    // The earlier object was not changed in place (a memoized card compares by identity).
    expect(third?.refusals).toHaveLength(0);
    expect(model.steps[0]).toBe(first);
  });

  it('applies each event in time that does not grow with the log', () => {
    const bodies: CodifyEventBody[] = [];
    for (let step = 1; step <= 2000; step += 1) bodies.push(...stepBodies(step, 'List Files'));
    const long = log(bodies);
    const model = new StepModel();
    const timeFor = (events: readonly CodifyEvent[]) => {
      const started = performance.now();
      model.applyAll(events);
      return performance.now() - started;
    };
    // The first and last thousand events cost about the same (not 20 times more at the end).
    const early = timeFor(long.slice(0, 1000));
    timeFor(long.slice(1000, long.length - 1000));
    const late = timeFor(long.slice(long.length - 1000));
    expect(model.steps).toHaveLength(2000);
    expect(late).toBeLessThan(Math.max(early * 5, 20));
  });
});
