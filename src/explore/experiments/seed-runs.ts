import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { throwIfStopped } from '../../errors/run-stopped.js';
import type { Run } from '../../runs/run.js';
import type { Sandbox } from '../../sandbox/types.js';
import { defaultLimits } from '../../sandbox/types.js';
import { improvementMargin, metricSample } from '../../tasks/metric-statistics.js';
import { parseMetric } from '../../tasks/parse-metric.js';
import type { Task, TaskMetric } from '../../tasks/types.js';

/** One seed of the plan: the final script run once, untraced, with `--seed N`. */
export interface SeedRun {
  seed: number;
  /** The metric the run printed last; null when it printed none or failed. */
  value: number | null;
  exitCode: number | null;
  timedOut: boolean;
  /** The run's whole output, where `value` is read from. */
  outputPath: string;
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

/**
 * Runs the experiment's final script once per seed of its plan, each as its own measured,
 * untraced run in the implement run's workspace (as `--repeats` does for implement), and
 * keeps the values in `seeds.json` so a resumed exploration does not run them again.
 */
export async function runSeeds(input: {
  run: Run;
  /** experiments/<idea>/seeds.json */
  file: string;
  /** The experiment's implement run. */
  runDir: string;
  /** The final script, relative to the run's workspace. */
  script: string;
  task: Task;
  metric: TaskMetric;
  seeds: readonly number[];
  sandbox: Sandbox;
  interpreter: string;
  gpu: boolean;
  /** A stop cancels the seed in flight; no seeds.json is written for a stopped set. */
  signal?: AbortSignal;
}): Promise<SeedRun[]> {
  if (existsSync(input.file)) return JSON.parse(readFileSync(input.file, 'utf8')) as SeedRun[];
  const workspace = join(input.runDir, 'workspace');
  const runs: SeedRun[] = [];
  for (const seed of input.seeds) {
    const args = [...input.task.args, '--seed', String(seed)];
    const outputPath = join(
      input.runDir,
      'outputs',
      `seed-${seed}-${input.script.replace(/[/\\]/g, '_')}.txt`,
    );
    mkdirSync(dirname(outputPath), { recursive: true });
    const result = await input.sandbox.run({
      workspace,
      readOnlyPaths: input.task.inputFiles.map((file) => join(workspace, file)),
      interpreter: input.interpreter,
      script: input.script,
      args,
      limits: { ...defaultLimits, timeoutMs: input.task.timeoutS * 1000 },
      network: input.task.network,
      gpu: input.gpu,
      trace: false,
      outputPath,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    });
    throwIfStopped(input.signal);
    input.run.emit({
      type: 'execution-end',
      script: relative(input.run.dir, join(workspace, input.script)),
      args,
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
    runs.push({
      seed,
      value: ran ? (parseMetric(output, input.metric)?.value ?? null) : null,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      outputPath: result.outputPath,
    });
  }
  writeFileSync(input.file, `${JSON.stringify(runs, null, 2)}\n`);
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
