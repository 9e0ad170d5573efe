import type { CodifyEvent, CodifyEventBody } from '../../runs/events.js';

/** Stamps bodies with seq and a time `offsetsMs[i]` after 2026-01-01T00:00:00Z. */
export function stamp(bodies: Array<[number, CodifyEventBody]>): CodifyEvent[] {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  return bodies.map(([offsetMs, body], index) => ({
    ...body,
    seq: index + 1,
    time: new Date(start + offsetMs).toISOString(),
  }));
}

export const sampleRun: CodifyEvent[] = stamp([
  [0, { type: 'run-start', runId: 'r', mode: 'implement', name: 'moe', argv: [], models: {} }],
  [100, { type: 'step-start', step: 1 }],
  [150, { type: 'llm-start', callId: 1, role: 'planner', model: 'openai:gpt-4o' }],
  [
    2_250,
    {
      type: 'llm-end',
      callId: 1,
      role: 'planner',
      model: 'openai:gpt-4o',
      messages: [],
      text: 'Action: Execute Script',
      usage: { inputTokens: 12_345, outputTokens: 321, cachedInputTokens: 0 },
      costUsd: 0.0342,
      latencyMs: 2100,
      attempts: 1,
    },
  ],
  [
    2_300,
    { type: 'action-start', step: 1, action: 'Execute Script', input: { script: 'train.py' } },
  ],
  [
    14_600,
    {
      type: 'execution-end',
      script: 'train.py',
      args: ['--epochs', '1'],
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 12_300,
      metric: 0.913,
    },
  ],
  [
    14_700,
    {
      type: 'action-end',
      step: 1,
      action: 'Execute Script',
      ok: true,
      observation: 'accuracy 0.913',
      display: 'ran train.py: exit 0\naccuracy 0.913',
      durationMs: 12_400,
    },
  ],
  [14_800, { type: 'step-end', step: 1, action: 'Execute Script' }],
  [15_000, { type: 'step-start', step: 2 }],
  [
    15_100,
    { type: 'guard-refusal', step: 2, guard: 'duplicate-action', message: 'same action twice' },
  ],
  [
    75_500,
    {
      type: 'execution-end',
      script: 'train.py',
      args: [],
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
      durationMs: 60_000,
    },
  ],
  [75_600, { type: 'budget-exhausted', budget: 'steps', message: 'step budget of 2 used up' }],
  [
    75_700,
    {
      type: 'run-end',
      status: 'budget-exhausted',
      reason: 'forced final answer',
      totals: {
        steps: 1,
        llmCalls: 1,
        inputTokens: 12_345,
        outputTokens: 321,
        cachedInputTokens: 0,
        costUsd: 0.0342,
        unpricedCalls: 0,
      },
    },
  ],
]);
