import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { chooseInterpreter } from '../agent/implement.js';
import { type ImplementResult, resultFile } from '../agent/final-result.js';
import type { CodifyEventBody } from '../runs/events.js';
import { createSandbox } from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/types.js';
import { loadTask } from '../tasks/load-task.js';
import { runSeeds, type SeedRun } from '../tasks/seeds/run-seeds.js';
import { measureStarterSeed } from '../tasks/seeds/starter-seed.js';
import type { Task } from '../tasks/types.js';
import { stateOf } from './dispatch/run-state.js';
import type { PlannedRun } from './suite/plan-runs.js';
import { seedVaried, type Suite, type SuiteItem } from './suite/suite.js';

type TaskItem = Extract<SuiteItem, { kind: 'task' }>;

/** `<eval>/seeds/<item>/starter/seed-N.json`: the starter on one seed. */
export const starterSeedFile = (evalDir: string, item: string, seed: number): string =>
  join(evalDir, 'seeds', item, 'starter', `seed-${seed}.json`);

/**
 * `<eval>/seeds/<key>/<run id>/seed-N.json`: a run's final script on one seed. Keyed by the
 * run folder too, so a combination run again (a new folder) is measured again.
 */
export const finalSeedFile = (evalDir: string, key: string, runDir: string, seed: number): string =>
  join(evalDir, 'seeds', key, basename(runDir), `seed-${seed}.json`);

function readSeedRun(path: string): SeedRun | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as SeedRun;
}

/** The starter's seed runs measured so far, in the item's seed order. */
export function readStarterSeeds(evalDir: string, item: TaskItem): SeedRun[] {
  return item.seeds.flatMap((seed) => readSeedRun(starterSeedFile(evalDir, item.name, seed)) ?? []);
}

/** A finished run's final script on the item's seeds, as measured so far. */
export function readFinalSeeds(evalDir: string, key: string, runDir: string, item: TaskItem) {
  return item.seeds.flatMap((seed) => readSeedRun(finalSeedFile(evalDir, key, runDir, seed)) ?? []);
}

interface SeedContext {
  evalDir: string;
  task: Task;
  sandbox: Sandbox;
  interpreter: string;
  emit: (body: CodifyEventBody) => void;
  signal?: AbortSignal;
}

/**
 * Stage `seeds`: for every task item with seeds, its starter and each finished run's final
 * script, run once per seed with the seed set as the task declares, so the collection can
 * pair them seed by seed. A seed already measured (its file written) is not run again, so a
 * killed or grown evaluation runs only what is missing. Returns the scripts runs made.
 */
export async function measureSeeds(
  suite: Suite,
  evalDir: string,
  planned: PlannedRun[],
  emit: (body: CodifyEventBody) => void,
  signal?: AbortSignal,
): Promise<number> {
  const items = suite.items.filter(seedVaried);
  if (items.length === 0) return 0;
  const sandbox = await createSandbox(suite.sandbox);
  let ran = 0;
  for (const item of items) {
    const task = await loadTask(item.path);
    if (task.metric === undefined || task.seed === undefined) continue;
    const context: SeedContext = {
      evalDir,
      task,
      sandbox,
      interpreter: await chooseInterpreter(task, suite.python),
      emit,
      ...(signal === undefined ? {} : { signal }),
    };
    ran += await measureStarterSeeds(context, item);
    for (const run of planned) {
      if (run.item.name !== item.name) continue;
      ran += await measureFinalSeeds(context, item, run);
    }
  }
  return ran;
}

async function measureStarterSeeds(context: SeedContext, item: TaskItem): Promise<number> {
  const { task, evalDir } = context;
  const declaration = task.seed;
  if (declaration === undefined) return 0;
  let ran = 0;
  for (const seed of item.seeds) {
    const file = starterSeedFile(evalDir, item.name, seed);
    if (existsSync(file)) continue;
    const dir = join(evalDir, 'seeds', item.name, 'starter');
    mkdirSync(dir, { recursive: true });
    const entry = await measureStarterSeed({
      task,
      declaration,
      seed,
      sandbox: context.sandbox,
      interpreter: context.interpreter,
      runDir: join(dir, `seed-${seed}`),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    writeFileSync(file, `${JSON.stringify(entry, null, 2)}\n`);
    context.emit({
      type: 'seed-measure',
      item: item.name,
      key: null,
      seed,
      metric: entry.value,
      exitCode: entry.exitCode,
    });
    ran += 1;
  }
  return ran;
}

async function measureFinalSeeds(
  context: SeedContext,
  item: TaskItem,
  planned: PlannedRun,
): Promise<number> {
  const { task, evalDir } = context;
  const state = stateOf(planned);
  if (state.kind !== 'finished' || task.seed === undefined || task.metric === undefined) return 0;
  const path = join(state.runDir, resultFile);
  if (!existsSync(path)) return 0;
  const result = JSON.parse(readFileSync(path, 'utf8')) as ImplementResult;
  // Code that did not run (C) or was never written (D) has no seeds to measure.
  if (result.finalScript === null || !result.ran) return 0;
  const workspace = join(state.runDir, 'workspace');
  const script = relative(state.runDir, result.finalScript);
  // A workspace that did not come back (or was cleared) is not the script failing on a seed.
  if (!existsSync(join(workspace, script))) return 0;
  let ran = 0;
  for (const seed of item.seeds) {
    const file = finalSeedFile(evalDir, planned.key, state.runDir, seed);
    if (existsSync(file)) continue;
    const [entry] = await runSeeds({
      workspace,
      script,
      task,
      metric: task.metric,
      declaration: task.seed,
      seeds: [seed],
      sandbox: context.sandbox,
      interpreter: context.interpreter,
      gpu: false,
      outputDir: join(evalDir, 'seeds', planned.key, basename(state.runDir)),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    if (entry === undefined) continue;
    writeFileSync(file, `${JSON.stringify(entry, null, 2)}\n`);
    context.emit({
      type: 'seed-measure',
      item: item.name,
      key: planned.key,
      seed,
      metric: entry.value,
      exitCode: entry.exitCode,
    });
    ran += 1;
  }
  return ran;
}
