import { chmod, cp, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultLimits } from '../sandbox/types.js';
import type { ExecutionResult, Sandbox, SandboxLimits } from '../sandbox/types.js';
import { type MetricReading, parseMetric } from './parse-metric.js';
import { starterPerformanceText } from './starter-performance.js';
import { taskFileNames } from './task-file-names.js';
import type { Task } from './types.js';

export interface MeasureStarterOptions {
  task: Task;
  sandbox: Sandbox;
  /** Absolute path of the Python interpreter (from findInterpreter). */
  interpreter: string;
  /** The run folder; the scratch copy, the output file and the performance file go here. */
  runDir: string;
  /** Default: defaultLimits with the task's timeout. */
  limits?: SandboxLimits;
  /** Keep the scratch copy (`<runDir>/starter/`) after the run instead of deleting it. */
  keepScratch?: boolean;
  /** Pass NVIDIA devices in, as the agent's runs will (`--gpu`), so the figures compare. */
  gpu?: boolean;
  /** The output file's name in the run folder (default starter-output.txt). */
  outputName?: string;
  /** Variables the script sees besides the sandbox's own (a seed declared as `env`). */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface StarterMeasurement {
  execution: ExecutionResult;
  /** The metric read from the output; undefined when the task has none or it never matched. */
  metric?: MetricReading;
  /** Written when the task declares a metric and the starter printed it. */
  performancePath?: string;
  /** The content of performancePath, ready for task.files.starterPerformance. */
  performanceText?: string;
  /** Where the starter ran: a copy of the task's inputs under the run folder. */
  scratchDir: string;
}

/** Whether codify should run the starter to learn its score before the agent starts. */
export function needsStarterMeasurement(task: Task): boolean {
  return task.metric !== undefined && task.files.starterPerformance === undefined;
}

/** Copies the task's inputs as the agent's workspace holds them: same layout, read-only. */
async function copyInputs(task: Task, scratchDir: string): Promise<string[]> {
  const source = task.inputDir ?? task.dir;
  const readOnly: string[] = [];
  for (const input of task.inputFiles) {
    const destination = join(scratchDir, input);
    // dereference: symlinked inputs become real copies; the user's linked files are never chmod-ed.
    await cp(join(source, input), destination, { recursive: true, force: true, dereference: true });
    if ((await lstat(destination)).isFile()) await chmod(destination, 0o444);
    readOnly.push(destination);
  }
  return readOnly;
}

/** The whole output from its file; the in-memory copy keeps only head and tail. */
async function fullOutput(execution: ExecutionResult): Promise<string> {
  try {
    return await readFile(execution.outputPath, 'utf8');
  } catch {
    return execution.output;
  }
}

/**
 * Runs the task's entry point exactly as the agent would (its inputs copied read-only into
 * `<runDir>/starter/`, its args, the sandbox and limits), never in the user's task folder.
 * Reads the metric (last match wins) and, when found, writes starter_code_performance.txt
 * into the run folder. A script that fails is a result, not an exception.
 */
export async function measureStarter(options: MeasureStarterOptions): Promise<StarterMeasurement> {
  const { task, sandbox, interpreter, runDir } = options;
  const scratchDir = join(runDir, 'starter');
  await rm(scratchDir, { recursive: true, force: true });
  await mkdir(scratchDir, { recursive: true });
  try {
    const readOnlyPaths = await copyInputs(task, scratchDir);
    const execution = await sandbox.run({
      workspace: scratchDir,
      readOnlyPaths,
      interpreter,
      script: task.entrypoint,
      args: task.args,
      limits: options.limits ?? { ...defaultLimits, timeoutMs: task.timeoutS * 1000 },
      network: task.network,
      gpu: options.gpu ?? false,
      trace: false,
      outputPath: join(runDir, options.outputName ?? 'starter-output.txt'),
      ...(options.env === undefined ? {} : { env: options.env }),
      signal: options.signal,
    });
    const measurement: StarterMeasurement = { execution, scratchDir };
    if (!task.metric) return measurement;
    const metric = parseMetric(await fullOutput(execution), task.metric);
    if (!metric) return measurement;
    measurement.metric = metric;
    if (execution.exitCode === 0) {
      measurement.performanceText = starterPerformanceText(task, metric, execution);
      measurement.performancePath = join(runDir, taskFileNames.starterPerformance);
      await writeFile(measurement.performancePath, measurement.performanceText);
    }
    return measurement;
  } finally {
    if (!options.keepScratch) await rm(scratchDir, { recursive: true, force: true });
  }
}
