import { describe, expect, it } from 'vitest';
import { findDivergence } from '../../src/cli/replay/divergence.js';
import { replayArgv } from '../../src/cli/replay/replay-argv.js';
import { callsInHistory, recordedCallsFromEvents } from '../../src/llm/calls-from-events.js';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';

let seq = 0;
const event = (body: CodifyEventBody): CodifyEvent => ({
  ...body,
  seq: ++seq,
  time: new Date(0).toISOString(),
});
const start = (resumedFrom?: number) =>
  event({
    type: 'run-start',
    runId: 'r',
    mode: 'implement',
    name: 'n',
    argv: [],
    models: {},
    ...(resumedFrom === undefined ? {} : { resumedFrom }),
  });
const call = (text: string) =>
  event({
    type: 'llm-end',
    callId: 0,
    role: 'planner',
    model: 'replay:x',
    messages: [{ role: 'user', content: `asks for ${text}` }],
    text,
    usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
    costUsd: null,
    latencyMs: 0,
    attempts: 1,
  });
const stepEnd = (step: number) =>
  event({ type: 'step-end', step, action: 'x', checkpoint: { step } });

describe('the model calls of a run, from its event log', () => {
  it('keeps once the calls of a step a resume redid: re-asked copies (older logs) replace the first', () => {
    // Logs written before the one lifecycle: the resumed process asked its redone step's
    // calls again and logged them a second time.
    const events = [
      start(),
      call('a'),
      call('b'),
      stepEnd(1),
      call('c'),
      stepEnd(2),
      call('d'),
      start(7),
      call('d'),
      stepEnd(3),
      call('e'),
      call('f'),
      start(12),
    ];
    // e and f are answered from the log by the next process, so they count as completed.
    expect(callsInHistory(events)).toBe(6);
    const resumed = [...events, stepEnd(4), call('g')];
    expect(recordedCallsFromEvents(resumed).map((recorded) => recorded.text)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
    ]);
    expect(recordedCallsFromEvents(resumed).map((recorded) => recorded.call)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  it('keeps a repeated request that no resume separates (several samples of one prompt)', () => {
    const events = [start(), call('a'), call('a'), stepEnd(1)];
    expect(recordedCallsFromEvents(events)).toHaveLength(2);
  });

  it('counts the calls of a run without checkpoints (strategies that start over ask them again)', () => {
    const events = [start(), call('a'), event({ type: 'step-end', step: 1, action: 'x' })];
    expect(callsInHistory(events)).toBe(1);
    expect(recordedCallsFromEvents(events)).toHaveLength(1);
  });
});

describe('the command a replay runs', () => {
  it('replaces every model flag, the root, --record, --out and --json, and keeps the rest', () => {
    const argv = replayArgv(
      [
        'paper',
        'papers/x.md',
        '--model',
        'openai:gpt-4o',
        '--worker=openai:gpt-4o-mini',
        '--record',
        'session.jsonl',
        '--out',
        'repo',
        '--root',
        'old-runs',
        '--json',
        '--self-refine',
        '--smoke-timeout',
        '60',
      ],
      { eventLog: '/runs/r/events.jsonl', plannerLevels: 3, root: '/runs', json: false },
    );
    expect(argv).toEqual([
      'paper',
      'papers/x.md',
      '--self-refine',
      '--smoke-timeout',
      '60',
      '--model',
      'replay:/runs/r/events.jsonl',
      '--planner',
      'replay:/runs/r/events.jsonl,replay:/runs/r/events.jsonl,replay:/runs/r/events.jsonl',
      '--root',
      '/runs',
    ]);
  });
});

describe('where a replay diverged', () => {
  const recorded = [start(), call('a'), call('b'), call('c')];

  it('is the replay: model failure the replay logged, with its call number', () => {
    const message =
      'replay: call 2 (planner) differs from the recording at messages[0].content, character 5 (numbers masked): recorded "…", live "…"';
    const replayed = [
      start(),
      call('a'),
      event({
        type: 'llm-error',
        callId: 2,
        role: 'planner',
        model: 'replay:x',
        message,
        attempts: 1,
      }),
    ];
    expect(findDivergence(recorded, replayed)).toEqual({ call: 2, message });
  });

  it('is the first recorded call never asked when the replay ended early', () => {
    expect(findDivergence(recorded, [start(), call('a'), call('b')])).toEqual({
      call: 3,
      message:
        'replay: the replayed run ended after 2 model call(s), but the recording holds 3; call 3 (planner) was never asked',
    });
  });

  it('is none when every recorded call was asked and matched', () => {
    expect(findDivergence(recorded, [start(), call('a'), call('b'), call('c')])).toEqual({
      call: null,
      message: 'no divergence',
    });
  });
});
