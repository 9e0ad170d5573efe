import { describe, expect, it } from 'vitest';
import { contextTokensOf } from './context-windows.js';

describe('contextTokensOf', () => {
  it('knows hosted models, their dated versions, and not local or recorded ones', () => {
    expect(contextTokensOf('openai:gpt-4o')).toBe(128_000);
    expect(contextTokensOf('openai:gpt-4o-mini-2024-07-18')).toBe(128_000);
    expect(contextTokensOf('anthropic:claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(contextTokensOf('ollama:llama3')).toBeUndefined();
    expect(contextTokensOf('replay:judge.jsonl')).toBeUndefined();
  });
});
