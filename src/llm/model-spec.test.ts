import { describe, expect, it } from 'vitest';
import { parseModelSpec } from './model-spec.js';

describe('parseModelSpec', () => {
  it('splits provider and model at the first colon', () => {
    expect(parseModelSpec('openai-compatible:org/model:7b')).toEqual({
      provider: 'openai-compatible',
      model: 'org/model:7b',
      text: 'openai-compatible:org/model:7b',
    });
    expect(parseModelSpec('exchange:./answers').model).toBe('./answers');
  });

  it('rejects specs without a provider, with an unknown one, or without a model, listing the providers', () => {
    const providers = 'openai, anthropic, google, ollama, openai-compatible, exchange, replay';
    expect(() => parseModelSpec('foo')).toThrow(
      `bad model "foo": a model is written provider:model, e.g. openai:gpt-4o-mini; providers: ${providers}`,
    );
    expect(() => parseModelSpec('nope:x', '--worker')).toThrow(
      `--worker: unknown provider "nope" in "nope:x"`,
    );
    expect(() => parseModelSpec('openai:')).toThrow(/names no model after "openai:"/);
  });
});
