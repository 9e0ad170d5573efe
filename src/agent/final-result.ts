import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunContext } from '../runs/context.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import {
  improvementMargin,
  improvesBeyondSpread,
  metricSample,
} from '../tasks/seeds/metric-statistics.js';
import { parseMetric } from '../tasks/parse-metric.js';
import type { Task } from '../tasks/types.js';
import { diffStatistics, unifiedDiff } from '../workspace/unified-diff.js';
import type { Workspace } from '../workspace/workspace.js';
import type { RunTotals } from '../runs/events.js';
import type { BudgetUsage } from './budgets.js';
import type { StrategyName, StrategyStatus } from './strategies/strategy.js';

export const resultFile = 'result.json';

/**
 * The final script's measurement: always fresh, untraced runs in the same sandbox the
 * starter was measured in, so both figures are taken the same way.
 */
export interface ExecutionSummary {
  /** Of the last run made (runs stop at the first failure). */
  exitCode: number | null;
  timedOut: boolean;
  outputPath: string | null;
  /** Untraced runs made for the result (`--repeats`, default 1). */
  runs: number;
  /** Mean wall time of those runs. */
  durationMs: number;
}

export interface MetricComparison {
  name: string;
  goal: 'max' | 'min';
  /** What the final script printed (the mean over its runs); null when the pattern read nothing. */
  value: number | null;
  /** The starter's figure (the mean over its runs when measured several times). */
  starter: number | null;
  starterSource: 'starter_code_performance.txt' | 'measured' | null;
  /**
   * Whether the final script beats the starter on the metric's goal by more than `margin`;
   * null when either figure is unknown.
   */
  improved: boolean | null;
  /** Each run's value: the final script's, and the starter's (one stated value from the file). */
  values: number[];
  starterValues: number[];
  /** Sample standard deviations (0 for a single run); null when there is no value. */
  sd: number | null;
  starterSd: number | null;
  /** Two standard errors of the difference of the means; 0 when both are single runs. */
  margin: number | null;
}

/** What `<run>/result.json` holds; the same for every strategy. */
export interface ImplementResult {
  outcome: StrategyStatus;
  reason: string;
  strategy: StrategyName;
  task: string;
  runId: string;
  runDir: string;
  /** The final script copied out of the workspace, or null when none was written. */
  finalScript: string | null;
  /** The final script's path in the workspace. */
  workspaceScript: string;
  /** The final script ran to completion (exit code 0, no timeout). */
  ran: boolean;
  execution: ExecutionSummary | null;
  metric: MetricComparison | null;
  /** Lines added and removed against the starter code. */
  linesEdited: { added: number; removed: number };
  steps: number;
  tokens: { input: number; output: number; cached: number; total: number };
  costUsd: number | null;
  /** Time the run was worked on, over every process that worked on it (a resume's wait excluded). */
  wallTimeMs: number;
  /** That time by stage: measuring the starter, the agent, measuring the final script. */
  stageTimesMs?: Record<string, number>;
}

export interface FinalResultInput {
  strategy: StrategyName;
  status: StrategyStatus;
  reason: string;
  task: Task;
  workspace: Workspace;
  sandbox: Sandbox;
  run: RunContext;
  interpreter: string;
  limits: SandboxLimits;
  gpu: boolean;
  usage: BudgetUsage;
  /**
   * The run's totals over its whole log (every call paid, once, over every process): the
   * one accounting that `codify runs`, the web app and eval reports read too.
   */
  totals: RunTotals;
  /** Time worked on the run before the final measurement, and by stage. */
  wallTimeMs: number;
  stageTimesMs: Record<string, number>;
  /** Untraced runs of the final script (`--repeats`); default 1. */
  repeats?: number;
  /** The starter's metric from codify's own repeated measurement, when it made one. */
  starterValues?: number[];
  /** The script Final Answer named; default the task's output. */
  script?: string;
  /** task.files.starterPerformance was measured by codify in this run, not given by the task. */
  starterMeasured: boolean;
  /**
   * Leave the final script unmeasured: the run was interrupted (Ctrl-C, SIGTERM), and the
   * person who stopped it is not kept waiting; `codify resume` measures it when it ends.
   */
  skipMeasurement?: boolean;
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function execute(
  input: FinalResultInput,
  script: string,
  label: string,
): Promise<{
  exitCode: number | null;
  timedOut: boolean;
  outputPath: string;
  output: string;
  durationMs: number;
}> {
  const outputPath = join(
    input.run.dir,
    'outputs',
    `${label}-${script.replace(/[/\\]/g, '_')}.txt`,
  );
  await mkdir(dirname(outputPath), { recursive: true });
  const args = input.task.args;
  const result = await input.sandbox.run({
    workspace: input.workspace.root,
    readOnlyPaths: input.task.inputFiles.map((file) => join(input.workspace.root, file)),
    interpreter: input.interpreter,
    script,
    args,
    limits: {
      ...input.limits,
      timeoutMs: Math.min(input.limits.timeoutMs, input.task.timeoutS * 1000),
    },
    network: input.task.network,
    gpu: input.gpu,
    trace: false,
    outputPath,
  });
  const full = (await readOrUndefined(result.outputPath)) ?? result.output;
  const metric = input.task.metric === undefined ? undefined : parseMetric(full, input.task.metric);
  input.run.emit({
    type: 'execution-end',
    script,
    args,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    outputPath: result.outputPath,
    ...(metric === undefined ? {} : { metric: metric.value }),
    blocked: result.blocked,
  });
  return {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    outputPath: result.outputPath,
    output: full,
    durationMs: result.durationMs,
  };
}

function starterMetric(input: FinalResultInput): {
  values: number[];
  source: MetricComparison['starterSource'];
} {
  const metric = input.task.metric;
  if (metric === undefined) return { values: [], source: null };
  if (input.starterValues !== undefined && input.starterValues.length > 0) {
    return { values: input.starterValues, source: 'measured' };
  }
  const stated = input.task.files.starterPerformance;
  if (stated === undefined) return { values: [], source: null };
  const source = input.starterMeasured ? 'measured' : 'starter_code_performance.txt';
  const reading = parseMetric(stated, metric);
  if (reading !== undefined) {
    return reading.value === null
      ? { values: [], source: null }
      : { values: [reading.value], source };
  }
  // A hand-written performance file may state the number without the script's wording.
  const number = /-?\d+(?:\.\d+)?(?:e-?\d+)?/i.exec(stated);
  return number === null ? { values: [], source: null } : { values: [Number(number[0])], source };
}

function compareMetric(
  input: FinalResultInput,
  finalValues: number[],
  metric: NonNullable<Task['metric']>,
): MetricComparison {
  const starter = starterMetric(input);
  const finalSample = metricSample(finalValues);
  const starterSample = metricSample(starter.values);
  const both = finalSample !== null && starterSample !== null;
  return {
    name: metric.name,
    goal: metric.goal,
    value: finalSample?.mean ?? null,
    starter: starterSample?.mean ?? null,
    starterSource: starter.source,
    improved: both ? improvesBeyondSpread(finalSample, starterSample, metric.goal) : null,
    values: finalValues,
    starterValues: starter.values,
    sd: finalSample?.sd ?? null,
    starterSd: starterSample?.sd ?? null,
    margin: both ? improvementMargin(finalSample, starterSample) : null,
  };
}

/** Runs the final script `repeats` times, untraced, stopping at the first failed run. */
async function measureFinal(
  input: FinalResultInput,
  script: string,
): Promise<{ execution: ExecutionSummary; values: number[] }> {
  const repeats = Math.max(1, input.repeats ?? 1);
  const values: number[] = [];
  const durations: number[] = [];
  let last: Awaited<ReturnType<typeof execute>> | undefined;
  for (let index = 1; index <= repeats; index += 1) {
    last = await execute(input, script, repeats === 1 ? 'final' : `final-${index}`);
    durations.push(last.durationMs);
    const value =
      input.task.metric === undefined
        ? null
        : (parseMetric(last.output, input.task.metric)?.value ?? null);
    if (value !== null) values.push(value);
    if (last.exitCode !== 0 || last.timedOut) break;
  }
  return {
    execution: {
      exitCode: last?.exitCode ?? null,
      timedOut: last?.timedOut ?? false,
      outputPath: last?.outputPath ?? null,
      runs: durations.length,
      durationMs: durations.reduce((sum, value) => sum + value, 0) / Math.max(1, durations.length),
    },
    values,
  };
}

/**
 * Ends a run the same way for every strategy: copies the final script out of the workspace,
 * runs it once more unless this very version already ran, compares its metric with the
 * starter's, counts the lines edited and writes `<run>/result.json`. Never throws for a
 * missing or failing script: that is part of the result.
 */
export async function writeFinalResult(input: FinalResultInput): Promise<ImplementResult> {
  const started = Date.now();
  const script = input.script ?? input.task.output;
  let content: string | undefined;
  try {
    content = await input.workspace.read(script);
  } catch {
    content = undefined;
  }
  let finalScript: string | null = null;
  let execution: ExecutionSummary | null = null;
  let finalValues: number[] = [];
  if (content !== undefined) {
    finalScript = join(input.run.dir, script);
    await mkdir(dirname(finalScript), { recursive: true });
    await copyFile(join(input.workspace.root, script), finalScript);
  }
  if (content !== undefined && input.skipMeasurement !== true) {
    try {
      const measured = await measureFinal(input, script);
      execution = measured.execution;
      finalValues = measured.values;
    } catch (error) {
      input.run.emit({
        type: 'log',
        level: 'error',
        message: `the final script could not be executed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  const metric =
    input.task.metric === undefined ? null : compareMetric(input, finalValues, input.task.metric);
  const linesEdited =
    content === undefined
      ? { added: 0, removed: 0 }
      : diffStatistics(
          unifiedDiff(input.task.entrypoint, script, input.task.files.starterCode, content),
        );
  const { usage, totals } = input;
  const finalMs = Date.now() - started;
  const result: ImplementResult = {
    outcome: input.status,
    reason: input.reason,
    strategy: input.strategy,
    task: input.task.dir,
    runId: input.run.id,
    runDir: input.run.dir,
    finalScript,
    workspaceScript: script,
    ran: execution !== null && execution.exitCode === 0 && !execution.timedOut,
    execution,
    metric,
    linesEdited,
    steps: usage.steps,
    tokens: {
      input: totals.inputTokens,
      output: totals.outputTokens,
      cached: totals.cachedInputTokens,
      total: totals.inputTokens + totals.outputTokens,
    },
    costUsd: totals.unpricedCalls > 0 ? null : totals.costUsd,
    wallTimeMs: input.wallTimeMs + finalMs,
    stageTimesMs: { ...input.stageTimesMs, final: finalMs },
  };
  await writeFile(join(input.run.dir, resultFile), `${JSON.stringify(result, null, 2)}\n`, 'utf8');
  input.run.emit({ type: 'artifact-write', path: join(input.run.dir, resultFile), kind: 'result' });
  return result;
}
