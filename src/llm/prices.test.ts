import { describe, expect, it } from 'vitest';
import { addAnswer, describeCost, emptyTotals } from './call-totals.js';
import { costOf, findPrice, mergePrices } from './prices.js';
import type { ModelAnswer } from './types.js';

const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 0 };

describe('prices', () => {
  it('prices known models, dated versions by their base name, free local models at 0', () => {
    const table = mergePrices(undefined);
    expect(costOf('openai:gpt-4o', usage, table)).toBeCloseTo(12.5);
    expect(costOf('openai:gpt-4o-2024-08-06', usage, table)).toBeCloseTo(12.5);
    // The longer base name wins: gpt-4o-mini is not priced as gpt-4o.
    expect(costOf('openai:gpt-4o-mini-2024-07-18', usage, table)).toBeCloseTo(0.75);
    expect(costOf('anthropic:claude-sonnet-4-5-20250929', usage, table)).toBeCloseTo(18);
    expect(costOf('ollama:llama3.2', usage, table)).toBe(0);
    expect(costOf('exchange:answers', usage, table)).toBe(0);
  });

  it('charges cached input at the cached price, or the input price when none is given', () => {
    const table = mergePrices({ 'openai-compatible:mine': { inputPerMTok: 2, outputPerMTok: 4 } });
    const cached = { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 500_000 };
    expect(costOf('openai:gpt-4o', cached, table)).toBeCloseTo(0.5 * 2.5 + 0.5 * 1.25);
    expect(costOf('openai-compatible:mine', cached, table)).toBeCloseTo(2);
  });

  it('lets the config override and extend the table, and returns null for unknown models', () => {
    const table = mergePrices({ 'openai:gpt-4o': { inputPerMTok: 1, outputPerMTok: 1 } });
    expect(findPrice('openai:gpt-4o', table)).toEqual({ inputPerMTok: 1, outputPerMTok: 1 });
    expect(costOf('openai-compatible:unknown-model', usage, table)).toBeNull();
    expect(costOf('openai:some-future-model', usage, table)).toBeNull();
  });
});

const answer = (costUsd: number | null): ModelAnswer => ({
  callId: 1,
  role: 'worker',
  model: 'm',
  text: '',
  usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 },
  costUsd,
  latencyMs: 1,
  attempts: 1,
});

describe('totals', () => {
  it('says when the cost is exact, a lower bound, or unknown', () => {
    const exact = addAnswer(addAnswer(emptyTotals(), answer(0.01)), answer(0.0023));
    expect(exact).toMatchObject({
      calls: 2,
      inputTokens: 20,
      outputTokens: 10,
      cachedInputTokens: 4,
    });
    expect(describeCost(exact)).toBe('$0.0123');
    const partial = addAnswer(exact, answer(null));
    expect(describeCost(partial)).toBe('at least $0.0123 (1 call of unknown price)');
    expect(describeCost(addAnswer(emptyTotals(), answer(null)))).toBe(
      'unknown (no price for these models)',
    );
  });
});
