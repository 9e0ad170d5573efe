import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SeedRun } from '../../tasks/seeds/run-seeds.js';
import { measureStarterSeed } from '../../tasks/seeds/starter-seed.js';
import type { ExperimentContext } from './experiment-context.js';

/** `experiments/baseline/seeds/seed-N.json`: the prototype code on one seed. */
const seedFile = (context: ExperimentContext, seed: number) =>
  join(context.folder, 'baseline', 'seeds', `seed-${seed}.json`);

/**
 * The prototype code, unchanged, on each of the given seeds: what an idea's seeds are paired
 * with. Each seed runs once per exploration whichever ideas ask for it (ideas running side by
 * side share the run in flight) and is kept in its file, so a resume does not run it again.
 */
export async function baselineSeeds(
  context: ExperimentContext,
  seeds: readonly number[],
): Promise<SeedRun[]> {
  const runs: SeedRun[] = [];
  // One after another, as the idea's own seeds run: the runs do not compete for the machine.
  for (const seed of seeds) runs.push(await baselineSeed(context, seed));
  return runs;
}

function baselineSeed(context: ExperimentContext, seed: number): Promise<SeedRun> {
  const known = context.baselineSeeds.get(seed);
  if (known !== undefined) return known;
  const measuring = measureSeed(context, seed);
  context.baselineSeeds.set(seed, measuring);
  // A failed or stopped seed is not kept in flight: a later caller runs it again.
  measuring.catch(() => context.baselineSeeds.delete(seed));
  return measuring;
}

async function measureSeed(context: ExperimentContext, seed: number): Promise<SeedRun> {
  const file = seedFile(context, seed);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SeedRun;
  const { baseline, settings, host } = context;
  const runDir = join(context.folder, 'baseline', 'seeds', `seed-${seed}`);
  mkdirSync(runDir, { recursive: true });
  const declaration = baseline.task.seed ?? { flag: '--seed' };
  const entry = await measureStarterSeed({
    task: baseline.task,
    declaration,
    seed,
    sandbox: baseline.sandbox,
    interpreter: baseline.interpreter,
    runDir,
    gpu: settings.gpu,
    ...(host.signal === undefined ? {} : { signal: host.signal }),
  });
  context.run.emit({
    type: 'log',
    level: 'info',
    message: `baseline on seed ${seed}: ${entry.exitCode === 0 ? 'ran' : `exit ${String(entry.exitCode)}`}, output in ${entry.outputPath}`,
  });
  writeFileSync(file, `${JSON.stringify(entry, null, 2)}\n`);
  return entry;
}
