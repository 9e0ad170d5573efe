import type { CodifyConfig } from '../config/codify-config.js';
import { loadConfig } from '../config/load-config.js';
import type { ModelFlags } from '../config/model-flags.js';
import type { RunContext } from '../runs/context.js';
import { createModelCaller } from './create-model-caller.js';
import type { ModelRouter } from './router.js';
import { roleNames, type RoleName } from './types.js';

export interface CommandModels {
  config: CodifyConfig;
  caller: ModelRouter;
}

/**
 * Everything a model-using command needs from its flags: the resolved config and the
 * caller. Throws ConfigError, ModelSpecError or MissingApiKeyError with a message for the
 * user (naming the file, key, flag or variable) before any work starts.
 */
export function modelsForCommand(
  flags: ModelFlags,
  options: { cwd?: string; env?: Record<string, string | undefined>; run?: RunContext } = {},
): CommandModels {
  const config = loadConfig({
    flags,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const caller = createModelCaller(config, {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.run === undefined ? {} : { run: options.run }),
  });
  return { config, caller };
}

/** The specs of every role that has one, as the run-start event lists them. */
export function roleModels(config: CodifyConfig): Partial<Record<RoleName, string[]>> {
  const models: Partial<Record<RoleName, string[]>> = {};
  for (const role of roleNames) {
    if (config.roles[role].models.length > 0) models[role] = [...config.roles[role].models];
  }
  return models;
}
