import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelsForCommand, roleModels } from './caller-for-command.js';

describe('modelsForCommand', () => {
  it('builds config and caller from file, env and flags, and stops at start-up on a missing key', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'codify-command-'));
    writeFileSync(
      join(cwd, 'codify.config.json'),
      JSON.stringify({
        model: 'ollama:llama3.2',
        roles: { judge: { model: 'anthropic:claude-haiku-4-5' } },
      }),
    );
    const { config, caller } = modelsForCommand(
      { planner: 'openai:gpt-4o-mini,openai:gpt-4o' },
      { cwd, env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } },
    );
    expect(caller.levels('planner')).toBe(2);
    expect(caller.spec('planner', 1)).toBe('openai:gpt-4o');
    expect(roleModels(config)).toEqual({
      planner: ['openai:gpt-4o-mini', 'openai:gpt-4o'],
      expert: ['ollama:llama3.2'],
      worker: ['ollama:llama3.2'],
      summarizer: ['ollama:llama3.2'],
      judge: ['anthropic:claude-haiku-4-5'],
    });
    expect(() => modelsForCommand({}, { cwd, env: {} })).toThrow(
      'anthropic:claude-haiku-4-5 needs an API key: set the environment variable ANTHROPIC_API_KEY',
    );
  });
});
