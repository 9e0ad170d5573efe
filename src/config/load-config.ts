import { resolve } from 'node:path';
import { hostedProviderNames, parseModelSpec, type HostedProviderName } from '../llm/model-spec.js';
import { mergePrices } from '../llm/prices.js';
import { roleNames, type RoleName } from '../llm/types.js';
import type { CodifyConfig } from './codify-config.js';
import { ConfigError } from './config-error.js';
import type { ConfigFile } from './config-file-schema.js';
import { defaultConfig } from './default-config.js';
import type { ModelFlags } from './model-flags.js';
import { configFileName, readConfigFile } from './read-config-file.js';

type Environment = Record<string, string | undefined>;

export interface LoadConfigOptions {
  cwd?: string;
  /** `--config FILE`; otherwise ./codify.config.json is read when present. */
  configPath?: string;
  env?: Environment;
  flags?: ModelFlags;
}

/** Where each provider's base URL can be set from the environment. */
export const baseUrlVariables: Record<HostedProviderName, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  google: 'GOOGLE_GENERATIVE_AI_BASE_URL',
  ollama: 'OLLAMA_BASE_URL',
  'openai-compatible': 'OPENAI_COMPATIBLE_BASE_URL',
};

const roleVariable = (role: RoleName): string =>
  role === 'planner' ? 'CODIFY_PLANNER_MODELS' : `CODIFY_${role.toUpperCase()}_MODEL`;

const splitSpecs = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

/**
 * Roles that take several models: the planner's cascade, and the judge's models that
 * explore's independent reviewers take in turn (every other use of the judge takes the first).
 */
const listRoles: ReadonlySet<RoleName> = new Set(['planner', 'judge']);

interface Candidate {
  specs: string[];
  where: string;
}

/** A role's models from one layer (flags, env or file): its own setting first, then the shared one. */
function roleCandidate(
  role: RoleName,
  own: { value: string[] | string | undefined; where: string },
  shared: { value: string | undefined; where: string },
): Candidate | undefined {
  if (own.value !== undefined) {
    const specs = typeof own.value === 'string' ? splitSpecs(own.value) : own.value;
    if (specs.length > 0)
      return { specs: listRoles.has(role) ? specs : specs.slice(0, 1), where: own.where };
  }
  const sharedValue = nonEmpty(shared.value);
  return sharedValue === undefined
    ? undefined
    : { specs: [sharedValue.trim()], where: shared.where };
}

function fileRole(file: ConfigFile | undefined, role: RoleName): string[] | undefined {
  const entry = file?.roles?.[role];
  if (entry === undefined) return undefined;
  if (entry.models !== undefined) return entry.models;
  return entry.model === undefined ? undefined : [entry.model];
}

/**
 * The configuration a command runs with: defaults, then the config file, then environment
 * variables, then flags (flags win). Every model spec is checked here, so a bad one stops
 * the command before any work, with a message naming the flag, variable or key.
 */
export function loadConfig(options: LoadConfigOptions = {}): CodifyConfig {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const read = readConfigFile(cwd, options.configPath ?? flags.config);
  const file = read?.config;
  const fileLabel = options.configPath ?? flags.config ?? configFileName;
  const config = defaultConfig();
  if (read !== undefined) config.configFile = read.file;

  for (const role of roleNames) {
    const roleKey = role === 'planner' ? 'models' : 'model';
    const layers = [
      roleCandidate(
        role,
        { value: flags[role], where: `--${role}` },
        { value: flags.model, where: '--model' },
      ),
      roleCandidate(
        role,
        { value: nonEmpty(env[roleVariable(role)]), where: roleVariable(role) },
        { value: env.CODIFY_MODEL, where: 'CODIFY_MODEL' },
      ),
      roleCandidate(
        role,
        { value: fileRole(file, role), where: `${fileLabel}: roles.${role}.${roleKey}` },
        { value: file?.model, where: `${fileLabel}: model` },
      ),
    ];
    const chosen = layers.find((layer) => layer !== undefined);
    const settings = config.roles[role];
    if (chosen !== undefined) {
      settings.models = chosen.specs.map((spec, index) => {
        const where = chosen.specs.length > 1 ? `${chosen.where}[${index}]` : chosen.where;
        return parseModelSpec(spec, where).text;
      });
    }
    const fileSettings = file?.roles?.[role];
    if (fileSettings?.temperature !== undefined) settings.temperature = fileSettings.temperature;
    if (fileSettings?.maxOutputTokens !== undefined) {
      settings.maxOutputTokens = fileSettings.maxOutputTokens;
    }
  }

  for (const provider of hostedProviderNames) {
    const fromFile = file?.providers?.[provider];
    const fromEnv = nonEmpty(env[baseUrlVariables[provider]]);
    const settings = { ...fromFile, ...(fromEnv === undefined ? {} : { baseURL: fromEnv }) };
    if (Object.keys(settings).length > 0) config.providers[provider] = settings;
  }

  config.prices = mergePrices(file?.prices);
  config.retry = { ...config.retry, ...file?.retry };
  config.timeoutMs = flags.timeoutMs ?? envTimeout(env) ?? file?.timeoutMs ?? config.timeoutMs;
  config.exchange = { ...config.exchange, ...file?.exchange };
  const record = flags.record ?? nonEmpty(env.CODIFY_RECORD) ?? file?.record;
  if (record !== undefined) config.record = resolve(cwd, record);
  config.gpu = file?.gpu ?? false;
  config.cwd = cwd;
  return config;
}

function envTimeout(env: Environment): number | undefined {
  const text = nonEmpty(env.CODIFY_TIMEOUT_MS);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value <= 0) {
    throw new ConfigError(
      `CODIFY_TIMEOUT_MS: expected a positive whole number of milliseconds, got "${text}"`,
    );
  }
  return value;
}
