import { UsageError } from '../errors/codify-error.js';
import type { CodifyConfig } from '../config/codify-config.js';
import { loadConfig } from '../config/load-config.js';
import type { ModelFlags } from '../config/model-flags.js';
import { resolve } from 'node:path';
import { createModelCaller } from '../llm/create-model-caller.js';
import { parseModelSpec } from '../llm/model-spec.js';
import { readRecording } from '../llm/read-recording.js';
import type { ModelRouter } from '../llm/router.js';
import { roleNames, type RoleName } from '../llm/types.js';
import type { RunContext } from '../runs/context.js';

/** Roles without a model, named with the flags that set them. */
function missingRoles(config: CodifyConfig): RoleName[] {
  return roleNames.filter((role) => role !== 'judge' && config.roles[role].models.length === 0);
}

/**
 * The configuration of a model-using command, checked before anything starts: bad specs,
 * missing API keys and roles without a model stop the command with a message saying what
 * to set.
 */
export function loadModelSetup(flags: ModelFlags): CodifyConfig {
  const config = loadConfig({ flags });
  const missing = missingRoles(config);
  if (missing.length > 0) {
    throw new UsageError(
      `no model is set for ${missing.join(', ')}: pass --model SPEC (e.g. --model openai:gpt-4o-mini, --model exchange:DIR, --model replay:FILE), set CODIFY_MODEL, or give roles in codify.config.json`,
    );
  }
  // A recording that is missing or unreadable is reported now, not at the first call.
  for (const role of roleNames) {
    for (const text of config.roles[role].models) {
      const spec = parseModelSpec(text);
      if (spec.provider === 'replay')
        readRecording(resolve(config.cwd ?? process.cwd(), spec.model));
    }
  }
  // Builds the caller once without a run so missing API keys are reported now.
  createModelCaller(config);
  return config;
}

/**
 * The model caller of one run, its calls logged as events of that run; `completedCalls` for
 * a resumed run (a replay continues after them).
 */
export function createRunModelCaller(
  flags: ModelFlags,
  run: RunContext,
  completedCalls?: number,
): ModelRouter {
  return createModelCaller(loadModelSetup(flags), {
    run,
    ...(completedCalls === undefined ? {} : { completedCalls }),
  });
}
