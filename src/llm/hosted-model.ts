import { UsageError } from '../errors/codify-error.js';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ProviderSettings } from '../config/codify-config.js';
import { MissingApiKeyError } from './missing-api-key-error.js';
import type { HostedProviderName, ModelSpec } from './model-spec.js';
import { providerKeyVariables } from './provider-keys.js';

type Environment = Record<string, string | undefined>;

const keyVariable = (provider: HostedProviderName): string | undefined =>
  providerKeyVariables.find((entry) => entry.provider === provider)?.variable;

/** The API key for a spec, or undefined for providers that need none (ollama, openai-compatible). */
export function apiKeyFor(
  spec: ModelSpec & { provider: HostedProviderName },
  settings: ProviderSettings | undefined,
  env: Environment,
): string | undefined {
  const variable = settings?.apiKeyEnv ?? keyVariable(spec.provider);
  if (variable === undefined) return undefined;
  const key = env[variable];
  if (key !== undefined && key !== '') return key;
  const optional = spec.provider === 'openai-compatible' && settings?.apiKeyEnv === undefined;
  if (spec.provider === 'ollama' || optional) return undefined;
  throw new MissingApiKeyError(spec.text, variable);
}

/** A language model for a hosted spec; throws MissingApiKeyError when its key is not set. */
export function createHostedModel(
  spec: ModelSpec & { provider: HostedProviderName },
  settings: ProviderSettings | undefined,
  env: Environment,
): LanguageModelV3 {
  const apiKey = apiKeyFor(spec, settings, env);
  // Base URLs from the environment are folded into settings by loadConfig.
  const baseURL = settings?.baseURL;
  const common = {
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(settings?.headers === undefined ? {} : { headers: settings.headers }),
  };
  switch (spec.provider) {
    case 'openai':
      return createOpenAI({ ...common, apiKey })(spec.model);
    case 'anthropic':
      return createAnthropic({ ...common, apiKey })(spec.model);
    case 'google':
      return createGoogleGenerativeAI({ ...common, apiKey })(spec.model);
    case 'ollama':
      return createOllama(common)(spec.model);
    case 'openai-compatible': {
      if (baseURL === undefined) {
        throw new UsageError(
          `${spec.text} needs a server address: set providers["openai-compatible"].baseURL in codify.config.json or the environment variable OPENAI_COMPATIBLE_BASE_URL (e.g. http://localhost:8000/v1)`,
        );
      }
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(settings?.headers === undefined ? {} : { headers: settings.headers }),
        includeUsage: true,
      })(spec.model);
    }
  }
}
