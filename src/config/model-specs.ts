import type { CodifyConfig } from './codify-config.js';
import { roleNames, type RoleName } from '../llm/types.js';

/** The model specs per role as `run-start` lists them; roles without a model are left out. */
export function modelSpecsOf(config: CodifyConfig): Partial<Record<RoleName, string[]>> {
  const specs: Partial<Record<RoleName, string[]>> = {};
  for (const role of roleNames) {
    if (config.roles[role].models.length > 0) specs[role] = [...config.roles[role].models];
  }
  return specs;
}
