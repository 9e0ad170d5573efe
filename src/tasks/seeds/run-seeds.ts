import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { throwIfStopped } from '../../errors/run-stopped.js';
import type { CodifyEventBody } from '../../runs/events.js';
import type { Sandbox } from '../../sandbox/types.js';
import { defaultLimits } from '../../sandbox/types.js';
import type { Task, TaskMetric } from '../types.js';
import { improvementMargin, metricSample } from './metric-statistics.js';
import { readSeedOutput } from './seed-reading.js';
import { seededInvocation, type TaskSeed } from './task-seed.js';

/** One seed: the script run once, untraced, with the seed set as its task declares. */
export interface SeedRun {
  seed: number;
  /** The metric the run printed last; null when it printed none or failed. */
  value: number | null;
  exitCode: number | null;
  timedOut: boolean;
  /** The run's whole output, where `value` is read from. */
  outputPath: string;
  /** Every metric of the run's structured line (`CODIFY_RESULT`), when it printed one. */
  metrics?: Record<string, number>;
  /** Why a structured line the run printed could not be used. */
  resultProblem?: string;
}

/** The seeds of one experiment, summarized against the baseline. */
export interface SeedSummary {
  runs: SeedRun[];
  /** Mean and sample standard deviation of the seeds that printed a value. */
  mean: number;
  sd: number;
  /** mean − baseline, signed so that positive is better. */
  improvement: number;
  /** Two standard errors of the mean: an improvement within it may be noise. */
  margin: number;
  /** improvement − margin: what the ideas are ranked by. */
  effect: number;
  beyondMargin: boolean;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;

export interface RunSeedsInput {
  /**
   * Where the runs are kept (a JSON list of SeedRun), so a resumed caller does not run them
   * again; a caller that keeps each seed itself leaves it out.
   */
  file?: string;
  /** The folder the script runs in (a run's workspace, or a scratch copy of the task). */
  workspace: string;
  /** The script, relative to the workspace. */
  script: string;
  task: Task;
  metric: TaskMetric;
  /** How the script takes its seed (the task's declaration). */
  declaration: TaskSeed;
  seeds: readonly number[];
  sandbox: Sandbox;
  interpreter: string;
  gpu: boolean;
  /** The folder each seed's output file is written to. */
  outputDir: string;
  /** Tells a watcher about each run (an `execution-end` event). */
  emit?: (body: CodifyEventBody) => void;
  /** The event's script path as the watcher should see it (default: `script`). */
  shownScript?: string;
  /** A stop cancels the seed in flight; nothing is written for a stopped set. */
  signal?: AbortSignal;
}

/**
 * Runs a script once per seed, each as its own measured, untraced run (as `--repeats` does
 * for implement), and keeps the values in `file`. Explore's experiments and the evaluation's
 * seeded verdicts both run their seeds here.
 */
export async function runSeeds(input: RunSeedsInput): Promise<SeedRun[]> {
  if (input.file !== undefined && existsSync(input.file))
    return JSON.parse(readFileSync(input.file, 'utf8')) as SeedRun[];
  const runs: SeedRun[] = [];
  for (const seed of input.seeds) {
    const invocation = seededInvocation(input.declaration, seed, input.task.args);
    const outputPath = join(
      input.outputDir,
      `seed-${seed}-${input.script.replace(/[/\\]/g, '_')}.txt`,
    );
    mkdirSync(dirname(outputPath), { recursive: true });
    const result = await input.sandbox.run({
      workspace: input.workspace,
      readOnlyPaths: input.task.inputFiles.map((file) => join(input.workspace, file)),
      interpreter: input.interpreter,
      script: input.script,
      args: invocation.args,
      ...(Object.keys(invocation.env).length === 0 ? {} : { env: invocation.env }),
      limits: { ...defaultLimits, timeoutMs: input.task.timeoutS * 1000 },
      network: input.task.network,
      gpu: input.gpu,
      trace: false,
      outputPath,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    });
    throwIfStopped(input.signal);
    input.emit?.({
      type: 'execution-end',
      script: input.shownScript ?? input.script,
      args: invocation.args,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      outputPath: result.outputPath,
    });
    const output = existsSync(result.outputPath)
      ? readFileSync(result.outputPath, 'utf8')
      : result.output;
    const ran = result.exitCode === 0 && !result.timedOut;
    const reading = ran ? readSeedOutput(output, seed, input.metric) : { value: null };
    runs.push({
      seed,
      ...reading,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      outputPath: result.outputPath,
    });
  }
  if (input.file !== undefined) {
    mkdirSync(dirname(input.file), { recursive: true });
    writeFileSync(input.file, `${JSON.stringify(runs, null, 2)}\n`);
  }
  return runs;
}

/** Mean, spread and the effect beyond the margin; null when no seed printed a value. */
export function summarizeSeeds(
  runs: SeedRun[],
  goal: 'max' | 'min',
  baseline: number | null,
): SeedSummary | null {
  const values = runs.flatMap((entry) => (entry.value === null ? [] : [entry.value]));
  const sample = metricSample(values);
  if (sample === null || baseline === null) return null;
  const improvement = goal === 'max' ? sample.mean - baseline : baseline - sample.mean;
  // The baseline is one deterministic run: its side of the margin is zero.
  const margin = improvementMargin(sample, { values: [baseline], mean: baseline, sd: 0 });
  return {
    runs,
    mean: round(sample.mean),
    sd: round(sample.sd),
    improvement: round(improvement),
    margin: round(margin),
    effect: round(improvement - margin),
    beyondMargin: improvement > margin,
  };
}
