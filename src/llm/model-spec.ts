import { UsageError } from '../errors/codify-error.js';
/** Providers reached over HTTP through the Vercel AI SDK. */
export const hostedProviderNames = [
  'openai',
  'anthropic',
  'google',
  'ollama',
  'openai-compatible',
] as const;
export type HostedProviderName = (typeof hostedProviderNames)[number];

/** Models that need no network: answered through files, a recording, or a test script. */
export const localProviderNames = ['exchange', 'replay', 'scripted'] as const;
export type LocalProviderName = (typeof localProviderNames)[number];

export type ProviderName = HostedProviderName | LocalProviderName;
export const providerNames: readonly ProviderName[] = [
  ...hostedProviderNames,
  ...localProviderNames,
];

export interface ModelSpec {
  provider: ProviderName;
  /** The model id for hosted providers, the folder for exchange, the file for replay. */
  model: string;
  /** The spec as written, e.g. `openai:gpt-4o-mini`. */
  text: string;
}

export class ModelSpecError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'ModelSpecError';
  }
}

const isProviderName = (name: string): name is ProviderName =>
  (providerNames as readonly string[]).includes(name);

export const isHostedProvider = (name: ProviderName): name is HostedProviderName =>
  (hostedProviderNames as readonly string[]).includes(name);

/** The providers a user can name (scripted: is for tests, built in code). */
const userProviderNames = providerNames.filter((name) => name !== 'scripted');

const specHelp = (): string =>
  `a model is written provider:model, e.g. openai:gpt-4o-mini; providers: ${userProviderNames.join(', ')}`;

/** Parses `provider:model`; `where` names the flag, variable or config key it came from. */
export function parseModelSpec(text: string, where?: string): ModelSpec {
  const trimmed = text.trim();
  const prefix = where === undefined ? '' : `${where}: `;
  const colon = trimmed.indexOf(':');
  if (colon <= 0) {
    throw new ModelSpecError(`${prefix}bad model "${text}": ${specHelp()}`);
  }
  const provider = trimmed.slice(0, colon);
  const model = trimmed.slice(colon + 1).trim();
  if (!isProviderName(provider)) {
    throw new ModelSpecError(`${prefix}unknown provider "${provider}" in "${text}": ${specHelp()}`);
  }
  if (model === '' && provider !== 'scripted') {
    throw new ModelSpecError(
      `${prefix}model "${text}" names no model after "${provider}:"; ${specHelp()}`,
    );
  }
  return { provider, model, text: `${provider}:${model}` };
}
