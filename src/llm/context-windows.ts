/**
 * Input context of common models, in tokens, as each provider publishes it. Judges use it
 * to tell whether a paper and a repository fit one prompt (PaperCoder and PaperBench judge
 * whole when they fit, and only then split or pick files).
 */
const contextWindows: Record<string, number> = {
  'openai:gpt-4o': 128_000,
  'openai:gpt-4o-mini': 128_000,
  'openai:gpt-4.1': 1_047_576,
  'openai:gpt-4.1-mini': 1_047_576,
  'openai:gpt-4.1-nano': 1_047_576,
  'openai:o3': 200_000,
  'openai:o3-mini': 200_000,
  'openai:o4-mini': 200_000,
  'openai:gpt-5': 400_000,
  'openai:gpt-5-mini': 400_000,
  'openai:gpt-5-nano': 400_000,
  'anthropic:claude-opus-4-1': 200_000,
  'anthropic:claude-opus-4-0': 200_000,
  'anthropic:claude-sonnet-4-5': 200_000,
  'anthropic:claude-sonnet-4-0': 200_000,
  'anthropic:claude-sonnet-4': 200_000,
  'anthropic:claude-3-7-sonnet': 200_000,
  'anthropic:claude-haiku-4-5': 200_000,
  'anthropic:claude-3-5-haiku': 200_000,
  'google:gemini-2.5-pro': 1_048_576,
  'google:gemini-2.5-flash': 1_048_576,
  'google:gemini-2.5-flash-lite': 1_048_576,
  'google:gemini-2.0-flash': 1_048_576,
};

/**
 * What a model of unknown context is assumed to hold (local models, recordings, exchange):
 * 128k tokens, the smallest window of the hosted models above.
 */
export const defaultContextTokens = 128_000;

/** A spec's context window: exact name, then the longest base name a dated version starts with. */
export function contextTokensOf(spec: string): number | undefined {
  const exact = contextWindows[spec];
  if (exact !== undefined) return exact;
  let best: { key: string; tokens: number } | undefined;
  for (const [key, tokens] of Object.entries(contextWindows)) {
    if (spec.startsWith(`${key}-`) && (best === undefined || key.length > best.key.length)) {
      best = { key, tokens };
    }
  }
  return best?.tokens;
}
