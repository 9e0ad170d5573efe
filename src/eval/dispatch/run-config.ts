import type { CodifyConfig } from '../../config/codify-config.js';
import { roleNames } from '../../llm/types.js';
import type { RoleSpecs } from '../suite/suite.js';

/**
 * The configuration of one run: the command's (providers, prices, timeouts, the judge)
 * with the suite model's specs for the roles that do the work. `--record` is dropped: many
 * runs writing one recording would interleave their sessions.
 */
export function configForRun(base: CodifyConfig, specs: RoleSpecs, judge?: string): CodifyConfig {
  const roles = Object.fromEntries(
    roleNames.map((role) => [role, { ...base.roles[role], models: [...base.roles[role].models] }]),
  ) as CodifyConfig['roles'];
  if (specs.planner !== undefined) roles.planner.models = [...specs.planner];
  for (const role of ['expert', 'worker', 'summarizer'] as const) {
    const spec = specs[role];
    if (spec !== undefined) roles[role].models = [spec];
  }
  if (judge !== undefined) roles.judge.models = [judge];
  const config: CodifyConfig = { ...base, roles };
  delete config.record;
  return config;
}
