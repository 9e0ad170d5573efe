import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { CodifyEvent, CodifyEventBody } from '../runs/events.js';
import type { RunContext } from '../runs/context.js';
import { createScriptedCaller } from './scripted-model.js';

function collectingRun(): { run: RunContext; events: CodifyEventBody[] } {
  const events: CodifyEventBody[] = [];
  const run: RunContext = {
    id: 'test',
    dir: '/nonexistent',
    emit: (body) => {
      events.push(body);
      const event: CodifyEvent = { ...body, seq: events.length, time: new Date().toISOString() };
      return event;
    },
  };
  return { run, events };
}

const rateLimited = (retryAfter: string | null = '0'): APICallError =>
  new APICallError({
    message: 'rate limited',
    url: 'http://127.0.0.1/x',
    requestBodyValues: {},
    statusCode: 429,
    ...(retryAfter === null ? {} : { responseHeaders: { 'retry-after': retryAfter } }),
    isRetryable: true,
  });

describe('createScriptedCaller', () => {
  it('answers each role in order and keeps what each role was sent', async () => {
    const { caller, requests } = createScriptedCaller({
      planner: ['plan A', (request) => `echo ${request.messages.at(-1)?.content ?? ''}`],
      worker: ['edit done'],
    });
    const first = await caller.call({
      role: 'planner',
      system: 'You plan.',
      messages: [{ role: 'user', content: 'step 1' }],
    });
    const second = await caller.call({
      role: 'planner',
      messages: [
        { role: 'user', content: 'step 1' },
        { role: 'assistant', content: 'plan A' },
        { role: 'user', content: 'step 2' },
      ],
    });
    const third = await caller.call({
      role: 'worker',
      messages: [{ role: 'user', content: 'edit' }],
    });
    expect([first.text, second.text, third.text]).toEqual(['plan A', 'echo step 2', 'edit done']);
    expect(requests.planner).toHaveLength(2);
    expect(requests.planner[0]).toMatchObject({ system: 'You plan.', temperature: 0.8 });
    expect(requests.planner[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(requests.worker[0]?.temperature).toBe(0.2);
    expect(third).toMatchObject({ callId: 3, model: 'scripted:worker', costUsd: 0, attempts: 1 });
    expect(caller.totals()).toMatchObject({ calls: 3, unpricedCalls: 0 });
  });

  it('fails clearly when a role runs out of answers', async () => {
    const { caller } = createScriptedCaller({ worker: ['only one'] });
    await caller.call({ role: 'worker', messages: [{ role: 'user', content: 'a' }] });
    await expect(
      caller.call({ role: 'worker', messages: [{ role: 'user', content: 'b' }] }),
    ).rejects.toThrow(/scripted:worker has no answer for call 2: it was given 1/);
    await expect(
      caller.call({ role: 'judge', messages: [{ role: 'user', content: 'c' }] }),
    ).rejects.toThrow(/scripted:judge has no answer for call 1: it was given 0/);
  });

  it('walks the planner cascade by level', async () => {
    const { caller, requestsByLevel, requests } = createScriptedCaller({
      planner: { levels: [['base'], ['expert']] },
    });
    expect(caller.levels('planner')).toBe(2);
    expect(caller.spec('planner', 1)).toBe('scripted:planner@1');
    const answer = await caller.call({
      role: 'planner',
      level: 1,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(answer.text).toBe('expert');
    expect(requestsByLevel.planner[0]).toHaveLength(0);
    expect(requests.planner).toHaveLength(1);
    await expect(
      caller.call({ role: 'planner', level: 2, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/2 cascade level\(s\).*level 2 does not exist/);
  });

  it('retries a 429 and emits start, retry and end events', async () => {
    const { run, events } = collectingRun();
    const { caller, requests } = createScriptedCaller({ worker: [rateLimited(), 'fine'] }, { run });
    const answer = await caller.call({
      role: 'worker',
      label: 'edit',
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(answer.attempts).toBe(2);
    expect(requests.worker).toHaveLength(2);
    expect(events.map((event) => event.type)).toEqual(['llm-start', 'llm-retry', 'llm-end']);
    expect(events[1]).toMatchObject({ attempt: 1, delayMs: 0 });
    expect(events[2]).toMatchObject({ label: 'edit', text: 'fine', attempts: 2 });
  });

  it('does not retry a 400, and gives up after maxRetries on repeated 429s', async () => {
    const badRequest = new APICallError({
      message: 'bad request',
      url: 'http://127.0.0.1/x',
      requestBodyValues: {},
      statusCode: 400,
      isRetryable: false,
    });
    const { run, events } = collectingRun();
    const { caller, requests } = createScriptedCaller(
      { worker: [badRequest], judge: [rateLimited(), rateLimited(), rateLimited(), 'late'] },
      { run },
    );
    await expect(
      caller.call({ role: 'worker', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/worker model scripted:worker failed after 1 attempt: HTTP 400/);
    expect(requests.worker).toHaveLength(1);
    await expect(
      caller.call({ role: 'judge', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/failed after 3 attempts: HTTP 429/);
    expect(requests.judge).toHaveLength(3);
    expect(events.filter((event) => event.type === 'llm-error')).toHaveLength(2);
  });

  it('stops waiting when the caller cancels', async () => {
    const { caller } = createScriptedCaller(
      { worker: [rateLimited(null), 'never'] },
      {
        configure: (config) => {
          config.retry = { maxRetries: 3, initialDelayMs: 10_000, maxDelayMs: 10_000 };
        },
      },
    );
    const controller = new AbortController();
    const pending = caller.call({
      role: 'worker',
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user pressed ctrl-c')), 20);
    const started = Date.now();
    await expect(pending).rejects.toThrow(/ctrl-c/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
