/**
 * Start time of the built CLI: `node bin/codify.js --help` and `node bin/codify.js runs` (on
 * an empty runs folder), the median of several runs each. Commands load their modules only
 * when they run, so neither should wait for the pipelines' dependencies. Needs
 * `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/median.js';

const repository = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repository, 'bin', 'codify.js');
const runs = 9;

/** Milliseconds from spawning `node bin/codify.js ARGS` to its exit, once. */
function timeOnce(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(
      `codify ${args.join(' ')} exited with ${String(result.status)}: ${result.stderr}`,
    );
  }
  return elapsed;
}

export function runBench(): Promise<void> {
  if (!existsSync(join(repository, 'dist', 'cli', 'main.js'))) {
    console.log('dist/ is missing: run `npm run build` first (the bench times the built CLI).');
    return Promise.resolve();
  }
  const root = mkdtempSync(join(tmpdir(), 'codify-bench-help-'));
  const cases: [string, string[]][] = [
    ['codify --help', ['--help']],
    ['codify runs', ['runs', '--root', root]],
    ['codify implement --help', ['implement', '--help']],
  ];
  for (const [name, args] of cases) {
    timeOnce(args); // warm the file cache
    const times = Array.from({ length: runs }, () => timeOnce(args));
    console.log(
      `${name.padEnd(24)} median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}; ${runs} runs)`,
    );
  }
  return Promise.resolve();
}
