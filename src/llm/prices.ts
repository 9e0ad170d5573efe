import type { Usage } from './types.js';

/** Dollars per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Price of input tokens read from the provider's prompt cache; the input price when absent. */
  cachedInputPerMTok?: number;
}

export type PriceTable = Record<string, ModelPrice>;

/**
 * List prices of common models (standard tier, short prompts), as published by each
 * provider. Dated versions (`gpt-4o-2024-08-06`) use the price of their base name.
 * Extend or override through `prices` in codify.config.json.
 */
export const defaultPrices: PriceTable = {
  'openai:gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  'openai:gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 },
  'openai:gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  'openai:gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
  'openai:gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025 },
  'openai:o3': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  'openai:o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.275 },
  'openai:gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  'openai:gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025 },
  'openai:gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4, cachedInputPerMTok: 0.005 },
  'anthropic:claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  'anthropic:claude-opus-4-0': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  'anthropic:claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'anthropic:claude-sonnet-4-0': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'anthropic:claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'anthropic:claude-3-7-sonnet': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'anthropic:claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1 },
  'anthropic:claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08 },
  'google:gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.31 },
  'google:gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5, cachedInputPerMTok: 0.075 },
  'google:gemini-2.5-flash-lite': {
    inputPerMTok: 0.1,
    outputPerMTok: 0.4,
    cachedInputPerMTok: 0.025,
  },
  'google:gemini-2.0-flash': { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025 },
};

/** Providers whose answers cost nothing in dollars: local models, people, tests. */
const freeProviders = ['ollama', 'exchange', 'scripted'];

/** The price of a spec: exact name first, then the longest base name a dated version starts with. */
export function findPrice(spec: string, table: PriceTable): ModelPrice | undefined {
  const exact = table[spec];
  if (exact !== undefined) return exact;
  let best: { key: string; price: ModelPrice } | undefined;
  for (const [key, price] of Object.entries(table)) {
    if (spec.startsWith(`${key}-`) && (best === undefined || key.length > best.key.length)) {
      best = { key, price };
    }
  }
  if (best !== undefined) return best.price;
  const provider = spec.slice(0, spec.indexOf(':'));
  if (freeProviders.includes(provider)) {
    return { inputPerMTok: 0, outputPerMTok: 0, cachedInputPerMTok: 0 };
  }
  return undefined;
}

/** Dollars for one call, or null when the model's price is unknown. */
export function costOf(spec: string, usage: Usage, table: PriceTable): number | null {
  const price = findPrice(spec, table);
  if (price === undefined) return null;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const cachedRate = price.cachedInputPerMTok ?? price.inputPerMTok;
  const dollars =
    (usage.inputTokens - cached) * price.inputPerMTok +
    cached * cachedRate +
    usage.outputTokens * price.outputPerMTok;
  return dollars / 1_000_000;
}

/** The default table with the config's entries added over it. */
export const mergePrices = (overrides: PriceTable | undefined): PriceTable => ({
  ...defaultPrices,
  ...overrides,
});
