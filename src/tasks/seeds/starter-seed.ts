import { readFileSync } from 'node:fs';
import { throwIfStopped } from '../../errors/run-stopped.js';
import type { Sandbox } from '../../sandbox/types.js';
import { measureStarter } from '../measure-starter.js';
import type { Task, TaskMetric } from '../types.js';
import type { SeedRun } from './run-seeds.js';
import { readSeedOutput } from './seed-reading.js';
import { seededInvocation, type TaskSeed } from './task-seed.js';

export interface StarterSeedInput {
  task: Task;
  /** How the starter takes its seed. */
  declaration: TaskSeed;
  seed: number;
  sandbox: Sandbox;
  interpreter: string;
  /** The folder of this seed's run: its scratch copy and its output file. */
  runDir: string;
  /** The metric read as the run's value (default the task's). */
  metric?: TaskMetric;
  gpu?: boolean;
  signal?: AbortSignal;
}

/**
 * The starter (the unchanged task code) run once on one seed, exactly as the agent's runs
 * would run it: the evaluation's starter seeds and explore's baseline seeds are both this
 * run, so a final script and its baseline are paired on the same footing.
 */
export async function measureStarterSeed(input: StarterSeedInput): Promise<SeedRun> {
  const { task, seed } = input;
  const invocation = seededInvocation(input.declaration, seed, task.args);
  const { execution } = await measureStarter({
    task: { ...task, args: invocation.args },
    sandbox: input.sandbox,
    interpreter: input.interpreter,
    runDir: input.runDir,
    env: invocation.env,
    ...(input.gpu === undefined ? {} : { gpu: input.gpu }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  // A run cut off by a stop is no measurement: nothing is kept, the next invocation runs it.
  throwIfStopped(input.signal);
  const ran = execution.exitCode === 0 && !execution.timedOut;
  const output = ran ? outputOf(execution.outputPath, execution.output) : '';
  const reading = ran ? readSeedOutput(output, seed, input.metric ?? task.metric) : { value: null };
  return {
    seed,
    ...reading,
    exitCode: execution.exitCode,
    timedOut: execution.timedOut,
    outputPath: execution.outputPath,
  };
}

function outputOf(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}
