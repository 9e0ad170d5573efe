/** The environment variables each hosted provider reads its API key from. */
export const providerKeyVariables = [
  { provider: 'openai', variable: 'OPENAI_API_KEY' },
  { provider: 'anthropic', variable: 'ANTHROPIC_API_KEY' },
  { provider: 'google', variable: 'GOOGLE_GENERATIVE_AI_API_KEY' },
  { provider: 'openai-compatible', variable: 'OPENAI_COMPATIBLE_API_KEY' },
] as const;
