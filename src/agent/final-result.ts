import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunContext } from '../runs/context.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import { parseMetric } from '../tasks/parse-metric.js';
import type { Task } from '../tasks/types.js';
import { diffStatistics, unifiedDiff } from '../workspace/unified-diff.js';
import type { Workspace } from '../workspace/workspace.js';
import type { BudgetUsage } from './budgets.js';
import type { ExecutionSeen } from './checkpoint.js';
import { hashText } from './execution-tracker.js';
import type { StrategyName, StrategyStatus } from './strategies/strategy.js';

export const resultFile = 'result.json';

export interface ExecutionSummary {
  exitCode: number | null;
  timedOut: boolean;
  outputPath: string | null;
  /** True when the final version had already run during the run and was not run again. */
  reused: boolean;
}

export interface MetricComparison {
  name: string;
  goal: 'max' | 'min';
  /** What the final script printed; null when it printed nothing the pattern reads. */
  value: number | null;
  starter: number | null;
  starterSource: 'starter_code_performance.txt' | 'measured' | null;
  /** Whether the final script beats the starter on the metric's goal; null when unknown. */
  improved: boolean | null;
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
  wallTimeMs: number;
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
  lastExecution: ExecutionSeen | null;
  /** The script Final Answer named; default the task's output. */
  script?: string;
  /** task.files.starterPerformance was measured by codify in this run, not given by the task. */
  starterMeasured: boolean;
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
): Promise<{ exitCode: number | null; timedOut: boolean; outputPath: string; output: string }> {
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
  };
}

function starterMetric(input: FinalResultInput): {
  value: number | null;
  source: MetricComparison['starterSource'];
} {
  const metric = input.task.metric;
  const stated = input.task.files.starterPerformance;
  if (metric === undefined || stated === undefined) return { value: null, source: null };
  const source = input.starterMeasured ? 'measured' : 'starter_code_performance.txt';
  const reading = parseMetric(stated, metric);
  if (reading !== undefined) return { value: reading.value, source };
  // A hand-written performance file may state the number without the script's wording.
  const number = /-?\d+(?:\.\d+)?(?:e-?\d+)?/i.exec(stated);
  return number === null ? { value: null, source: null } : { value: Number(number[0]), source };
}

function improved(
  value: number | null,
  starter: number | null,
  goal: 'max' | 'min',
): boolean | null {
  if (value === null || starter === null) return null;
  return goal === 'max' ? value > starter : value < starter;
}

/**
 * Ends a run the same way for every strategy: copies the final script out of the workspace,
 * runs it once more unless this very version already ran, compares its metric with the
 * starter's, counts the lines edited and writes `<run>/result.json`. Never throws for a
 * missing or failing script: that is part of the result.
 */
export async function writeFinalResult(input: FinalResultInput): Promise<ImplementResult> {
  const script = input.script ?? input.task.output;
  let content: string | undefined;
  try {
    content = await input.workspace.read(script);
  } catch {
    content = undefined;
  }
  let finalScript: string | null = null;
  let execution: ExecutionSummary | null = null;
  let metricValue: number | null = null;
  if (content !== undefined) {
    finalScript = join(input.run.dir, script);
    await mkdir(dirname(finalScript), { recursive: true });
    await copyFile(join(input.workspace.root, script), finalScript);
    const last = input.lastExecution;
    if (last !== null && last.script === script && last.contentHash === hashText(content)) {
      execution = {
        exitCode: last.exitCode,
        timedOut: last.timedOut,
        outputPath: last.outputPath ?? null,
        reused: true,
      };
      metricValue = last.metric ?? null;
      if (
        last.metric === undefined &&
        last.outputPath !== undefined &&
        input.task.metric !== undefined
      ) {
        const output = await readOrUndefined(last.outputPath);
        metricValue =
          output === undefined ? null : (parseMetric(output, input.task.metric)?.value ?? null);
      }
    } else {
      try {
        const run = await execute(input, script, 'final');
        execution = {
          exitCode: run.exitCode,
          timedOut: run.timedOut,
          outputPath: run.outputPath,
          reused: false,
        };
        metricValue =
          input.task.metric === undefined
            ? null
            : (parseMetric(run.output, input.task.metric)?.value ?? null);
      } catch (error) {
        input.run.emit({
          type: 'log',
          level: 'error',
          message: `the final script could not be executed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
  }
  let metric: MetricComparison | null = null;
  if (input.task.metric !== undefined) {
    const starter = starterMetric(input);
    metric = {
      name: input.task.metric.name,
      goal: input.task.metric.goal,
      value: metricValue,
      starter: starter.value,
      starterSource: starter.source,
      improved: improved(metricValue, starter.value, input.task.metric.goal),
    };
  }
  const linesEdited =
    content === undefined
      ? { added: 0, removed: 0 }
      : diffStatistics(
          unifiedDiff(input.task.entrypoint, script, input.task.files.starterCode, content),
        );
  const { usage } = input;
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
      input: usage.inputTokens,
      output: usage.outputTokens,
      cached: usage.cachedInputTokens,
      total: usage.inputTokens + usage.outputTokens,
    },
    costUsd: usage.costUsd,
    wallTimeMs: usage.elapsedMs,
  };
  await writeFile(join(input.run.dir, resultFile), `${JSON.stringify(result, null, 2)}\n`, 'utf8');
  input.run.emit({ type: 'artifact-write', path: join(input.run.dir, resultFile), kind: 'result' });
  return result;
}
