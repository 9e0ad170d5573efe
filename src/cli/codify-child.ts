import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFirstEvent } from '../runs/read-first-event.js';
import { listRunIds } from '../runs/run-folders.js';

/**
 * How to start this same codify CLI as a child process: the built `dist/cli/main.js`, or,
 * when codify runs from its TypeScript sources (development, tests), `src/cli/main.ts`
 * under tsx, resolved absolutely so the child may run in another working directory.
 */
export function codifyChildCommand(args: readonly string[]): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  const main = join(dirname(here), fromSource ? 'main.ts' : 'main.js');
  if (!existsSync(main)) throw new Error(`cannot start codify again: ${main} is missing`);
  const loader = fromSource ? ['--import', tsxLoader()] : [];
  return { command: process.execPath, args: [...loader, main, ...args] };
}

/**
 * tsx, resolved from here so the child finds it from any folder; under vitest, which has no
 * `import.meta.resolve`, the bare name (resolved from the child's folder).
 */
function tsxLoader(): string {
  const meta: { resolve?: unknown } = import.meta;
  return typeof meta.resolve === 'function' ? import.meta.resolve('tsx') : 'tsx';
}

/**
 * The run folder a child codify process created under a root: one that was not there
 * before, whose run-start the child wrote (its pid). Undefined while it has none.
 */
export function runStartedBy(
  root: string,
  before: ReadonlySet<string>,
  pid: number | undefined,
): string | undefined {
  if (pid === undefined) return undefined;
  for (const id of listRunIds(root)) {
    if (before.has(id)) continue;
    const first = readFirstEvent(join(root, id));
    if (first?.type === 'run-start' && first.pid === pid) return join(root, id);
  }
  return undefined;
}
