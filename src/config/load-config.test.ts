import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { addModelOptions } from '../cli/options.js';
import { modelFlagsFrom } from './model-flags.js';

function folderWith(config: unknown): string {
  const folder = mkdtempSync(join(tmpdir(), 'codify-config-'));
  writeFileSync(join(folder, 'codify.config.json'), JSON.stringify(config));
  return folder;
}

describe('loadConfig', () => {
  it('reads codify.config.json from the folder, with defaults for the rest', () => {
    const cwd = folderWith({
      model: 'openai:gpt-4o-mini',
      roles: {
        planner: { models: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5'] },
        judge: { model: 'google:gemini-2.5-flash', temperature: 0 },
      },
      prices: { 'openai-compatible:mine': { inputPerMTok: 1, outputPerMTok: 2 } },
      retry: { maxRetries: 1 },
    });
    const config = loadConfig({ cwd, env: {} });
    expect(config.roles.planner).toEqual({
      models: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5'],
      temperature: 0.8,
    });
    expect(config.roles.worker).toEqual({ models: ['openai:gpt-4o-mini'], temperature: 0.2 });
    expect(config.roles.judge).toEqual({ models: ['google:gemini-2.5-flash'], temperature: 0 });
    expect(config.prices['openai-compatible:mine']).toEqual({ inputPerMTok: 1, outputPerMTok: 2 });
    expect(config.prices['openai:gpt-4o']).toBeDefined();
    expect(config.retry).toEqual({ maxRetries: 1, initialDelayMs: 1000, maxDelayMs: 30000 });
    expect(config.configFile).toBe(join(cwd, 'codify.config.json'));
  });

  it('names the file and key path of a bad value or an unknown key', () => {
    const cwd = folderWith({ roles: { planner: { temperature: 'hot' } }, retrys: {} });
    expect(() => loadConfig({ cwd, env: {} })).toThrow(
      'codify.config.json: roles.planner.temperature: expected number',
    );
    expect(() => loadConfig({ cwd, env: {} })).toThrow(
      'codify.config.json: (top level): unknown key "retrys"',
    );
  });

  it('names the key of a bad model spec and lists the providers', () => {
    const cwd = folderWith({ roles: { planner: { models: ['openai:gpt-4o', 'nope:x'] } } });
    expect(() => loadConfig({ cwd, env: {} })).toThrow(
      /codify\.config\.json: roles\.planner\.models\[1\]: unknown provider "nope".*openai, anthropic, google, ollama, openai-compatible, exchange, replay/,
    );
    expect(() => loadConfig({ cwd: folderWith({}), env: {}, flags: { model: 'foo' } })).toThrow(
      /--model: bad model "foo": a model is written provider:model/,
    );
  });

  it('reports a --config file that is missing or not JSON', () => {
    const cwd = folderWith({});
    expect(() => loadConfig({ cwd, env: {}, flags: { config: 'missing.json' } })).toThrow(
      /--config missing\.json: cannot read the file/,
    );
    writeFileSync(join(cwd, 'broken.json'), '{ "model": ');
    expect(() => loadConfig({ cwd, env: {}, configPath: 'broken.json' })).toThrow(
      /broken\.json: not valid JSON/,
    );
  });

  it('lets env beat the file and flags beat env', () => {
    const cwd = folderWith({
      model: 'openai:from-file',
      roles: { worker: { model: 'openai:worker-file' } },
      providers: { ollama: { baseURL: 'http://file:11434/api' } },
      timeoutMs: 5000,
    });
    const env = {
      CODIFY_MODEL: 'anthropic:from-env',
      CODIFY_WORKER_MODEL: 'anthropic:worker-env',
      CODIFY_PLANNER_MODELS: 'anthropic:a, anthropic:b',
      OLLAMA_BASE_URL: 'http://env:11434/api',
      CODIFY_TIMEOUT_MS: '7000',
    };
    const fromEnv = loadConfig({ cwd, env });
    expect(fromEnv.roles.worker.models).toEqual(['anthropic:worker-env']);
    expect(fromEnv.roles.judge.models).toEqual(['anthropic:from-env']);
    expect(fromEnv.roles.planner.models).toEqual(['anthropic:a', 'anthropic:b']);
    expect(fromEnv.providers.ollama?.baseURL).toBe('http://env:11434/api');
    expect(fromEnv.timeoutMs).toBe(7000);

    const program = addModelOptions(new Command().exitOverride());
    program.parse(
      [
        '--worker',
        'google:worker-flag',
        '--model',
        'google:from-flag',
        '--timeout-ms',
        '9000',
        '--record',
        'session.jsonl',
      ],
      { from: 'user' },
    );
    const flags = modelFlagsFrom(program.opts());
    const fromFlags = loadConfig({ cwd, env, flags });
    expect(fromFlags.roles.worker.models).toEqual(['google:worker-flag']);
    expect(fromFlags.roles.planner.models).toEqual(['google:from-flag']);
    expect(fromFlags.roles.expert.models).toEqual(['google:from-flag']);
    expect(fromFlags.timeoutMs).toBe(9000);
    expect(fromFlags.record).toBe(join(cwd, 'session.jsonl'));
  });

  it('takes several judge models (explore reviewers take them in turn); other roles one', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'codify-judges-'));
    const config = loadConfig({
      cwd,
      env: {},
      flags: { judge: 'openai:a, anthropic:b', worker: 'openai:c,openai:d' },
    });
    expect(config.roles.judge.models).toEqual(['openai:a', 'anthropic:b']);
    expect(config.roles.worker.models).toEqual(['openai:c']);
    const fromEnv = loadConfig({ cwd, env: { CODIFY_JUDGE_MODEL: 'openai:a,openai:b' } });
    expect(fromEnv.roles.judge.models).toEqual(['openai:a', 'openai:b']);
    expect(() => loadConfig({ cwd, env: {}, flags: { judge: 'openai:a,nope:b' } })).toThrow(
      /--judge\[1\]/,
    );
  });

  it('rejects a bad --timeout-ms naming the flag', () => {
    const program = addModelOptions(
      new Command().exitOverride().configureOutput({ writeErr: () => undefined }),
    );
    expect(() => program.parse(['--timeout-ms', 'soon'], { from: 'user' })).toThrow(
      /--timeout-ms takes a whole number above 0 \(got "soon"\)/,
    );
  });
});
