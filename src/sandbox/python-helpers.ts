import { EnvironmentError } from '../errors/codify-error.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** codify's own python/ folder (the tracer), found from this file in src/ or dist/src/. */
export function pythonHelpersFolder(): string {
  if (cached) return cached;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    const candidate = join(folder, 'python');
    if (existsSync(join(candidate, 'trace_runner.py'))) {
      cached = candidate;
      return candidate;
    }
    folder = dirname(folder);
  }
  throw new EnvironmentError(
    'codify is missing its python/trace_runner.py helper; reinstall codify (the python/ folder ships with it).',
  );
}
