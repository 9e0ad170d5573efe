import { resolve } from 'node:path';

/** Where runs live: the option, else CODIFY_RUNS_DIR, else `<cwd>/runs`. */
export function resolveRunsRoot(root?: string): string {
  if (root !== undefined && root !== '') return resolve(root);
  const fromEnvironment = process.env.CODIFY_RUNS_DIR;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return resolve(fromEnvironment);
  return resolve(process.cwd(), 'runs');
}
