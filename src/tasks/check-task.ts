import { exitCodes } from '../errors/exit-codes.js';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSandbox, SandboxUnavailableError, type SandboxKind } from '../sandbox/index.js';
import { unusedGpuNotice } from '../sandbox/gpus.js';
import { describeNoInterpreter, findInterpreter } from '../sandbox/interpreters.js';
import { defaultLimits } from '../sandbox/types.js';
import { type FolderInspection, inspectTaskFolder } from './inspect-task-folder.js';
import { loadTask } from './load-task.js';
import { measureStarter } from './measure-starter.js';
import type { MetricReading } from './parse-metric.js';
import { starterFailure } from './starter-failure.js';
import { TaskError } from './task-error.js';
import { taskFileNames } from './task-file-names.js';
import type { Task, TaskMetric } from './types.js';

const optional = (text: string | undefined): string[] => (text === undefined ? [] : [text]);

/** `codify check` outcomes, as rows of the one exit-code table (README "Exit codes"). */
export const checkExitCodes = {
  usable: exitCodes.ok,
  invalidTask: exitCodes.input,
  cannotRun: exitCodes.environment,
  starterFailed: exitCodes.starterFailed,
  metricNotFound: exitCodes.metricNotFound,
} as const;

export interface CheckTaskOptions {
  taskPath: string;
  /** Replace the task's args. */
  args?: string[];
  /** Use this interpreter instead of searching for one. */
  python?: string;
  sandbox: SandboxKind;
  /** Replace the task's timeout, in seconds. */
  timeoutS?: number;
  /** Pass NVIDIA devices into the sandbox, as `implement --gpu` will. */
  gpu?: boolean;
  signal?: AbortSignal;
  /** Told what is happening before each slow step (probing interpreters, running the starter). */
  onProgress?: (message: string) => void;
}

export interface StarterRun {
  command: string;
  interpreter: string;
  interpreterVersion: string;
  sandbox: SandboxKind;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  memoryExceeded: boolean;
  durationMs: number;
  blocked: string[];
  notes: string[];
  output: string;
  outputBytes: number;
}

export interface TaskCheckReport {
  exitCode: (typeof checkExitCodes)[keyof typeof checkExitCodes];
  /** Why the task is unusable; absent when it is usable. */
  problem?: string;
  dir: string;
  inspection?: FolderInspection;
  task?: Task;
  settingsFrom?: 'task.json' | 'defaults';
  run?: StarterRun;
  metric?: { declared: TaskMetric; reading?: MetricReading };
}

async function loadForCheck(dir: string): Promise<TaskCheckReport> {
  let inspection: FolderInspection | undefined;
  const exists = await stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  try {
    const task = await loadTask(dir);
    inspection = await inspectTaskFolder(dir, task.entrypoint);
    const hasSettings = inspection.known.some(
      (file) => file.path === taskFileNames.settings && file.state !== 'missing',
    );
    return {
      exitCode: checkExitCodes.usable,
      dir,
      inspection,
      task,
      settingsFrom: hasSettings ? 'task.json' : 'defaults',
    };
  } catch (error) {
    if (!(error instanceof TaskError)) throw error;
    if (exists) inspection = await inspectTaskFolder(dir);
    return { exitCode: checkExitCodes.invalidTask, problem: error.message, dir, inspection };
  }
}

/**
 * Validates a task folder the way `codify implement` would use it and runs its starter code
 * once in the sandbox, in a temporary copy that is deleted afterwards. Never throws for a
 * problem of the task or the machine; those are the report's `problem` and `exitCode`.
 */
export async function checkTask(options: CheckTaskOptions): Promise<TaskCheckReport> {
  const report = await loadForCheck(resolve(options.taskPath));
  const task = report.task;
  if (!task) return report;
  if (options.args) task.args = options.args;
  if (options.timeoutS !== undefined) task.timeoutS = options.timeoutS;

  options.onProgress?.('Looking for a Python interpreter…');
  const choice = await findInterpreter(task.pythonRequires, options.python);
  if (!choice.chosen) {
    report.exitCode = checkExitCodes.cannotRun;
    const failure = choice.failures[0];
    report.problem =
      options.python !== undefined && failure
        ? `--python ${options.python} cannot be used: ${failure.reason}. Pass a Python 3 interpreter${task.pythonRequires.length ? ` that imports ${task.pythonRequires.join(', ')}` : ''}, such as /usr/bin/python3, or leave --python out to search for one.`
        : describeNoInterpreter(task.pythonRequires, choice.failures);
    return report;
  }
  let sandbox;
  try {
    sandbox = await createSandbox(options.sandbox);
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    report.exitCode = checkExitCodes.cannotRun;
    report.problem = error.message;
    return report;
  }

  options.onProgress?.(
    `Running python ${[task.entrypoint, ...task.args].join(' ')} with ${choice.chosen.path} (sandbox ${sandbox.kind}, timeout ${task.timeoutS} s)…`,
  );
  const runDir = await mkdtemp(join(tmpdir(), 'codify-check-'));
  try {
    const measurement = await measureStarter({
      task,
      sandbox,
      interpreter: choice.chosen.path,
      runDir,
      limits: { ...defaultLimits, timeoutMs: task.timeoutS * 1000 },
      gpu: options.gpu ?? false,
      signal: options.signal,
    });
    const execution = measurement.execution;
    const run: StarterRun = {
      command: ['python', task.entrypoint, ...task.args].join(' '),
      interpreter: choice.chosen.path,
      interpreterVersion: choice.chosen.version,
      sandbox: sandbox.kind,
      exitCode: execution.exitCode,
      signal: execution.signal,
      timedOut: execution.timedOut,
      memoryExceeded: execution.memoryExceeded,
      durationMs: execution.durationMs,
      blocked: execution.blocked,
      notes: [...(execution.notes ?? []), ...optional(unusedGpuNotice(options.gpu ?? false))],
      output: execution.output,
      outputBytes: execution.outputBytes,
    };
    report.run = run;
    if (task.metric) report.metric = { declared: task.metric, reading: measurement.metric };
    const failure = starterFailure(execution, task.metric, measurement.metric);
    if (failure !== undefined) {
      report.exitCode =
        failure.kind === 'starter-failed'
          ? checkExitCodes.starterFailed
          : checkExitCodes.metricNotFound;
      report.problem = failure.message;
    }
    return report;
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}
