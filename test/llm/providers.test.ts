import { afterEach, describe, expect, it } from 'vitest';
import type { CodifyConfig } from '../../src/config/codify-config.js';
import { defaultConfig } from '../../src/config/default-config.js';
import { createModelCaller } from '../../src/llm/create-model-caller.js';
import { MissingApiKeyError } from '../../src/llm/missing-api-key-error.js';
import type { RunContext } from '../../src/runs/context.js';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';
import { startFakeServer, type Behaviour, type FakeServer } from './fake-provider-server.js';
import { wireFormats, type WireFormat } from './provider-wire-formats.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setUp(
  format: WireFormat,
  behaviours: Behaviour[],
  adjust?: (config: CodifyConfig) => void,
) {
  const server = await startFakeServer(behaviours);
  servers.push(server);
  const config = defaultConfig();
  config.roles.worker.models = [`${format.provider}:${format.model}`];
  config.providers[format.provider] = { baseURL: `${server.origin}${format.basePath}` };
  config.retry = { maxRetries: 2, initialDelayMs: 5, maxDelayMs: 20 };
  adjust?.(config);
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
  const env = format.keyVariable === undefined ? {} : { [format.keyVariable]: 'test-key-123' };
  const caller = createModelCaller(config, { run, env });
  return { server, caller, events };
}

const request = {
  role: 'worker' as const,
  system: 'You edit Python files.',
  messages: [{ role: 'user' as const, content: 'Rename the variable lr to learning_rate.' }],
};

describe.each(wireFormats)('$provider over HTTP', (format) => {
  it('answers with the text and parses usage', async () => {
    const { server, caller, events } = await setUp(format, [
      { kind: 'answer', body: format.answer('Done: renamed.') },
    ]);
    const answer = await caller.call(request);
    expect(answer.text).toBe('Done: renamed.');
    expect(answer.usage.outputTokens).toBe(30);
    expect(answer.usage.inputTokens).toBe(120);
    expect(answer.usage.cachedInputTokens).toBe(format.provider === 'ollama' ? 0 : 20);
    expect(answer.attempts).toBe(1);
    expect(server.received).toHaveLength(1);
    const received = server.received[0];
    expect(received?.path.split('?')[0]).toBe(format.requestPath);
    expect(format.lastUserText(received?.body)).toBe('Rename the variable lr to learning_rate.');
    if (format.keyVariable !== undefined) {
      expect(JSON.stringify(received?.headers)).toContain('test-key-123');
    }
    expect(JSON.stringify(received?.body)).toContain('You edit Python files.');
    expect(events.map((event) => event.type)).toEqual(['llm-start', 'llm-end']);
  });

  it('waits as long as retry-after says after a 429, then succeeds', async () => {
    const { server, caller, events } = await setUp(
      format,
      [
        { kind: 'fail', status: 429, headers: { 'retry-after': '1' } },
        { kind: 'answer', body: format.answer('after the wait') },
      ],
      (config) => {
        // Ignoring retry-after would wait a minute and fail the test's time limit.
        config.retry = { maxRetries: 2, initialDelayMs: 60_000, maxDelayMs: 60_000 };
      },
    );
    const started = Date.now();
    const answer = await caller.call(request);
    expect(answer.text).toBe('after the wait');
    expect(answer.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(server.received).toHaveLength(2);
    expect(events.find((event) => event.type === 'llm-retry')).toMatchObject({
      attempt: 1,
      delayMs: 1000,
      reason: expect.stringContaining('HTTP 429') as unknown,
    });
  });

  it('retries a 500, then succeeds', async () => {
    const { server, caller } = await setUp(format, [
      { kind: 'fail', status: 500 },
      { kind: 'answer', body: format.answer('second time lucky') },
    ]);
    const answer = await caller.call(request);
    expect(answer.text).toBe('second time lucky');
    expect(answer.attempts).toBe(2);
    expect(server.received).toHaveLength(2);
  });

  it('times out a server that never answers, after its retries', async () => {
    const { server, caller, events } = await setUp(format, [{ kind: 'hang' }], (config) => {
      config.timeoutMs = 150;
      config.retry = { maxRetries: 1, initialDelayMs: 5, maxDelayMs: 5 };
    });
    await expect(caller.call(request)).rejects.toThrow(
      `worker model ${format.provider}:${format.model} failed after 2 attempts: timed out after 150 ms`,
    );
    expect(server.received).toHaveLength(2);
    expect(events.map((event) => event.type)).toEqual(['llm-start', 'llm-retry', 'llm-error']);
  });
});

describe('hosted providers', () => {
  it('does not retry a 400', async () => {
    const format = wireFormats[0];
    if (format === undefined) throw new Error('no wire formats');
    const { server, caller } = await setUp(format, [
      {
        kind: 'fail',
        status: 400,
        body: { error: { message: 'bad input', type: 'invalid_request_error', code: 'bad' } },
      },
    ]);
    await expect(caller.call(request)).rejects.toThrow(/failed after 1 attempt: HTTP 400/);
    expect(server.received).toHaveLength(1);
  });

  it('names the missing API key variable when the caller is created', () => {
    const config = defaultConfig();
    config.roles.planner.models = ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5'];
    expect(() => createModelCaller(config, { env: { OPENAI_API_KEY: 'set' } })).toThrow(
      MissingApiKeyError,
    );
    expect(() => createModelCaller(config, { env: { OPENAI_API_KEY: 'set' } })).toThrow(
      'anthropic:claude-sonnet-4-5 needs an API key: set the environment variable ANTHROPIC_API_KEY',
    );
    config.providers.openai = { apiKeyEnv: 'MY_OPENAI_KEY' };
    expect(() => createModelCaller(config, { env: { ANTHROPIC_API_KEY: 'set' } })).toThrow(
      /set the environment variable MY_OPENAI_KEY/,
    );
    config.roles.planner.models = ['ollama:llama3.2', 'openai-compatible:local'];
    expect(() => createModelCaller(config, { env: {} })).not.toThrow();
  });

  it('prices answers from the table, and leaves unknown prices null', async () => {
    const openai = wireFormats.find((format) => format.provider === 'openai');
    const compatible = wireFormats.find((format) => format.provider === 'openai-compatible');
    if (openai === undefined || compatible === undefined) throw new Error('missing wire formats');
    const priced = await setUp(openai, [{ kind: 'answer', body: openai.answer('ok') }]);
    const answer = await priced.caller.call(request);
    // gpt-4o-mini: 100 fresh input at $0.15, 20 cached at $0.075, 30 output at $0.60 per million.
    expect(answer.costUsd).toBeCloseTo((100 * 0.15 + 20 * 0.075 + 30 * 0.6) / 1e6, 12);
    const unpriced = await setUp(compatible, [{ kind: 'answer', body: compatible.answer('ok') }]);
    const free = await unpriced.caller.call(request);
    expect(free.costUsd).toBeNull();
    expect(unpriced.caller.totals()).toMatchObject({ calls: 1, unpricedCalls: 1, costUsd: 0 });
  });
});
