import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseInterpreter } from '../agent/implement.js';
import type { CodifyEventBody } from '../runs/events.js';
import { createSandbox } from '../sandbox/index.js';
import { loadTask } from '../tasks/load-task.js';
import { measureStarter } from '../tasks/measure-starter.js';
import type { Suite, SuiteItem } from './suite/suite.js';

export const starterFile = 'starter.json';

/** One run of a task's starter code, as kept in `<eval>/starter/<item>/trial-N/starter.json`. */
export interface StarterTrial {
  item: string;
  trial: number;
  metric: number | null;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

export const starterTrialDir = (evalDir: string, item: string, trial: number): string =>
  join(evalDir, 'starter', item, `trial-${trial}`);

/** The starter trials already measured for an item. */
export function readStarterTrials(evalDir: string, item: string, trials: number): StarterTrial[] {
  const found: StarterTrial[] = [];
  for (let trial = 1; trial <= trials; trial += 1) {
    const path = join(starterTrialDir(evalDir, item, trial), starterFile);
    if (existsSync(path)) found.push(JSON.parse(readFileSync(path, 'utf8')) as StarterTrial);
  }
  return found;
}

/**
 * Runs each task's starter `suite.starterTrials` times in the sandbox the runs use, so the
 * report can state how much its metric moves between identical runs (the noise margin an
 * improvement must clear). Trials already measured by an earlier invocation are kept.
 */
export async function measureStarterTrials(
  suite: Suite,
  evalDir: string,
  emit: (body: CodifyEventBody) => void,
): Promise<void> {
  if (suite.starterTrials === 0) return;
  const sandbox = await createSandbox(suite.sandbox);
  for (const item of suite.items) {
    if (item.kind !== 'task') continue;
    await measureItem(item, suite, evalDir, sandbox, emit);
  }
}

async function measureItem(
  item: Extract<SuiteItem, { kind: 'task' }>,
  suite: Suite,
  evalDir: string,
  sandbox: Awaited<ReturnType<typeof createSandbox>>,
  emit: (body: CodifyEventBody) => void,
): Promise<void> {
  const task = await loadTask(item.path);
  if (task.metric === undefined) return;
  const interpreter = await chooseInterpreter(task, suite.python);
  for (let trial = 1; trial <= suite.starterTrials; trial += 1) {
    const dir = starterTrialDir(evalDir, item.name, trial);
    if (existsSync(join(dir, starterFile))) continue;
    mkdirSync(dir, { recursive: true });
    const measurement = await measureStarter({ task, sandbox, interpreter, runDir: dir });
    const result: StarterTrial = {
      item: item.name,
      trial,
      metric: measurement.metric?.value ?? null,
      exitCode: measurement.execution.exitCode,
      timedOut: measurement.execution.timedOut,
      durationMs: measurement.execution.durationMs,
    };
    // Written last: a trial killed half-way has no starter.json and is measured again.
    writeFileSync(join(dir, starterFile), `${JSON.stringify(result, null, 2)}\n`);
    emit({
      type: 'starter-measure',
      item: item.name,
      trial,
      metric: result.metric,
      exitCode: result.exitCode,
    });
  }
}
