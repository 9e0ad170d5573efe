import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { exitCodeOf, exitCodes } from '../../src/errors/index.js';
import { createModelCaller } from '../../src/llm/create-model-caller.js';
import { ModelUnreachableError } from '../../src/llm/model-unreachable-error.js';
import type { RunContext } from '../../src/runs/context.js';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';
import { codify, repositoryRoot } from './codify-cli.js';
import { wireFormats, type WireFormat } from './provider-wire-formats.js';

/** A local port that was just listened on and closed: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error === undefined ? resolve() : reject(error))),
  );
  return address.port;
}

async function callThrough(format: WireFormat, origin: string) {
  const config = defaultConfig();
  config.roles.worker.models = [`${format.provider}:${format.model}`];
  config.providers[format.provider] = { baseURL: `${origin}${format.basePath}` };
  // a retry would wait a minute: longer than the test may take
  config.retry = { maxRetries: 4, initialDelayMs: 60_000, maxDelayMs: 60_000 };
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
  const started = Date.now();
  const error = await caller
    .call({ role: 'worker', messages: [{ role: 'user', content: 'hello' }] })
    .then(
      () => undefined,
      (failure: unknown) => failure,
    );
  return { error, events, elapsedMs: Date.now() - started };
}

describe.each(wireFormats)('$provider with no connection to be made', (format) => {
  it('fails a refused connection at once, naming the provider, the host and what to check', async () => {
    const port = await closedPort();
    const { error, events, elapsedMs } = await callThrough(format, `http://127.0.0.1:${port}`);
    expect(error).toBeInstanceOf(ModelUnreachableError);
    if (!(error instanceof ModelUnreachableError)) return;
    expect(error.failure.code).toBe('ECONNREFUSED');
    expect(error.host).toBe(`127.0.0.1:${port}`);
    expect(error.provider).toBe(format.provider);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain(`worker model ${format.provider}:${format.model}`);
    expect(error.message).toContain(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(error.message).toContain('check that the server is running');
    expect(error.message).toContain(`providers.${format.provider}.baseURL`);
    expect(exitCodeOf(error)).toBe(exitCodes.model);
    expect(events.map((event) => event.type)).toEqual(['llm-start', 'llm-error']);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('fails a host name that does not resolve at once', async () => {
    const { error, events, elapsedMs } = await callThrough(
      format,
      'http://codify-offline-test.invalid:8080',
    );
    expect(error).toBeInstanceOf(ModelUnreachableError);
    if (!(error instanceof ModelUnreachableError)) return;
    // ENOTFOUND where DNS answers "no such name"; EAI_AGAIN where no DNS server answers
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(error.failure.code);
    expect(error.host).toBe('codify-offline-test.invalid:8080');
    expect(error.message).toMatch(/host name .*check the network connection and the base URL/);
    expect(exitCodeOf(error)).toBe(exitCodes.model);
    expect(events.filter((event) => event.type === 'llm-retry')).toEqual([]);
    expect(elapsedMs).toBeLessThan(10_000);
  });
});

describe('codify implement with a provider it cannot reach', () => {
  it('ends at the first planner call with the reason and exit code 5', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-unreachable-'));
    try {
      const port = await closedPort();
      writeFileSync(
        join(folder, 'codify.config.json'),
        JSON.stringify({ providers: { openai: { baseURL: `http://127.0.0.1:${port}/v1` } } }),
      );
      process.env.OPENAI_API_KEY ??= 'test-key-123';
      const started = Date.now();
      const run = await codify(
        [
          'implement',
          join(repositoryRoot, 'test/fixtures/tasks/good-task'),
          '--model',
          'openai:gpt-4o-mini',
          '--root',
          join(folder, 'runs'),
        ],
        folder,
      );
      expect(run.status, run.output).toBe(exitCodes.model);
      expect(run.output).toContain(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`);
      expect(run.output).not.toMatch(/retry 1 in/);
      // the starter's measurement and one failed call; each retry would have waited a second or more
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 90_000);
});
