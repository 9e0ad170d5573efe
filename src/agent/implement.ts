import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ModelCaller, RoleName } from '../llm/types.js';
import type { EventSink } from '../runs/events.js';
import { createRun, type Run } from '../runs/run.js';
import { createSandbox, defaultLimits, type SandboxKind } from '../sandbox/index.js';
import { unusedGpuNotice } from '../sandbox/gpus.js';
import { describeNoInterpreter, findInterpreter } from '../sandbox/interpreters.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import { loadTask } from '../tasks/load-task.js';
import {
  measureStarter,
  needsStarterMeasurement,
  type StarterMeasurement,
} from '../tasks/measure-starter.js';
import { repeatedPerformanceText } from '../tasks/starter-performance.js';
import { taskFileNames } from '../tasks/task-file-names.js';
import { problemStatement } from '../tasks/problem-statement.js';
import type { Task } from '../tasks/types.js';
import { createWorkspace } from '../workspace/create-workspace.js';
import type { Workspace } from '../workspace/workspace.js';
import { allActions } from './actions/index.js';
import type { ActionDefinition } from './actions/types.js';
import { type AgentOptions, agentOptions } from './agent-options.js';
import { type ImplementResult, writeFinalResult } from './final-result.js';
import { type ImplementSettings, saveSettings } from './implement-settings.js';
import { runStrategy } from './strategies/run-strategy.js';
import type { FeedbackChannel } from '../runs/feedback.js';
import type { AskFeedback, StrategyContext, StrategyName } from './strategies/strategy.js';

export interface ImplementOptions {
  /** The task folder. */
  taskDir: string;
  strategy?: StrategyName;
  /** The models, or a factory given the new run (so a router can record its calls there). */
  models: ModelCaller | ((run: Run) => ModelCaller);
  /** The model specs per role, recorded in run-start. */
  modelSpecs?: Partial<Record<RoleName, string[]>>;
  sandbox?: SandboxKind;
  /** The Python interpreter; default the first one that imports the task's required modules. */
  python?: string;
  gpu?: boolean;
  /** Untraced runs of the starter and of the final script, compared by mean and spread (default 1). */
  repeats?: number;
  agent?: Partial<AgentOptions>;
  limits?: Partial<SandboxLimits>;
  /** Called after each step when agent.interactive is true. */
  ask?: AskFeedback;
  /** The person in the loop for interactive runs (see StrategyContext.feedback). */
  feedback?: FeedbackChannel;
  /** Where run folders go (default CODIFY_RUNS_DIR, else ./runs). */
  runsRoot?: string;
  sinks?: EventSink[];
  argv?: string[];
  /** The actions the agent may use; default all of src/agent/actions. */
  actions?: readonly ActionDefinition[];
  /** Run the starter code first when starter_code_performance.txt is missing (default true). */
  measureStarter?: boolean;
  signal?: AbortSignal;
  /** Called once the run folder exists (e.g. to print where it is). */
  onRun?: (run: Run) => void;
}

/** A run being worked on: what runImplement and resumeAgent share. */
export interface ImplementSession {
  run: Run;
  task: Task;
  workspace: Workspace;
  settings: ImplementSettings;
}

/** The interpreter to use, or an error naming what is missing and the --python fix. */
export async function chooseInterpreter(task: Task, explicit?: string): Promise<string> {
  const choice = await findInterpreter(task.pythonRequires, explicit);
  if (choice.chosen === undefined) {
    throw new Error(describeNoInterpreter(task.pythonRequires, choice.failures));
  }
  return explicit !== undefined ? resolve(explicit) : choice.chosen.path;
}

/**
 * Runs the starter `repeats` times, untraced, before the agent starts. Its figure (the mean
 * when repeated) becomes starter_code_performance.txt when the task has none; the values
 * are kept in the settings so a resumed run does not measure again.
 */
async function measureStarterRuns(
  session: ImplementSession,
  sandbox: Sandbox,
  repeats: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { run, task, settings } = session;
  const stated = task.files.starterPerformance !== undefined;
  run.emit({
    type: 'stage-start',
    stage: 'measure-starter',
    detail: repeats > 1 ? `${task.entrypoint}, ${repeats} runs` : task.entrypoint,
  });
  const measurements: StarterMeasurement[] = [];
  for (let index = 1; index <= repeats; index += 1) {
    const measurement = await measureStarter({
      task,
      sandbox,
      interpreter: settings.interpreter,
      runDir: run.dir,
      limits: settings.limits,
      gpu: settings.gpu,
      ...(repeats > 1 ? { outputName: `starter-output-${index}.txt` } : {}),
      ...(signal === undefined ? {} : { signal }),
    });
    if (measurement.performanceText === undefined || measurement.metric === undefined) {
      run.emit({
        type: 'stage-end',
        stage: 'measure-starter',
        ok: false,
        detail: `the starter did not print its metric (exit code ${String(measurement.execution.exitCode)})`,
      });
      return;
    }
    measurements.push(measurement);
  }
  const values = measurements.flatMap((measurement) =>
    measurement.metric?.value === undefined || measurement.metric.value === null
      ? []
      : [measurement.metric.value],
  );
  const [first] = measurements;
  const text =
    repeats === 1 ? first?.performanceText : repeatedPerformanceText(task, values, measurements);
  if (text === undefined) return;
  run.emit({ type: 'stage-end', stage: 'measure-starter', ok: true, detail: text.trim() });
  if (repeats > 1) settings.starterValues = values;
  if (!stated) {
    task.files.starterPerformance = text;
    settings.measuredStarterPerformance = text;
  }
  // The run's record of codify's own measurement, whether or not the task stated a figure.
  if (repeats > 1) await writeFile(join(run.dir, taskFileNames.starterPerformance), text);
  await saveSettings(run.dir, settings);
}

/** Runs the chosen strategy on a session and ends the run with result.json and run-end. */
export async function continueSession(
  session: ImplementSession,
  options: Pick<ImplementOptions, 'ask' | 'feedback' | 'actions' | 'signal'> & {
    models: ModelCaller;
    checkpoint?: StrategyContext['checkpoint'];
  },
): Promise<ImplementResult> {
  const { run, task, workspace, settings } = session;
  const sandbox = await createSandbox(settings.sandbox);
  if (settings.measuredStarterPerformance !== undefined) {
    task.files.starterPerformance = settings.measuredStarterPerformance;
  }
  const repeats = settings.repeats ?? 1;
  // Measured when the task states no figure, and with --repeats also when it does, so the
  // final script and the starter are compared like with like, with their spread.
  const measure =
    settings.measureStarter &&
    task.metric !== undefined &&
    settings.starterValues === undefined &&
    (needsStarterMeasurement(task) || repeats > 1);
  if (measure) {
    await measureStarterRuns(session, sandbox, repeats, options.signal);
  }
  const context: StrategyContext = {
    task,
    problem: problemStatement(task),
    workspace,
    sandbox,
    models: options.models,
    run,
    interpreter: settings.interpreter,
    limits: settings.limits,
    gpu: settings.gpu,
    actions: options.actions ?? allActions,
    options: settings.agent,
    ...(options.ask === undefined ? {} : { ask: options.ask }),
    ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
    ...(options.checkpoint === undefined ? {} : { checkpoint: options.checkpoint }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const outcome = await runStrategy(settings.strategy, context);
  const result = await writeFinalResult({
    strategy: settings.strategy,
    status: outcome.status,
    reason: outcome.reason,
    task,
    workspace,
    sandbox,
    run,
    interpreter: settings.interpreter,
    limits: settings.limits,
    gpu: settings.gpu,
    usage: outcome.usage,
    repeats,
    ...(settings.starterValues === undefined ? {} : { starterValues: settings.starterValues }),
    ...(outcome.finalScript === undefined ? {} : { script: outcome.finalScript }),
    starterMeasured: settings.measuredStarterPerformance !== undefined,
    skipMeasurement: outcome.status === 'stopped' && options.signal?.aborted === true,
  });
  run.close(outcome.status, outcome.reason, result);
  return result;
}

/**
 * `codify implement`: loads the task, creates the run and its workspace, runs the strategy
 * and writes result.json. Throws only for the user's mistakes (bad task folder, no
 * interpreter, no sandbox) before the run starts; afterwards every failure is in the result.
 */
export async function runImplement(options: ImplementOptions): Promise<ImplementResult> {
  const task = await loadTask(options.taskDir);
  const interpreter = await chooseInterpreter(task, options.python);
  const sandboxKind = options.sandbox ?? 'bubblewrap';
  // Checked before the run folder exists, so a missing sandbox leaves no empty run behind.
  await createSandbox(sandboxKind);
  const run = createRun({
    mode: 'implement',
    name: task.name,
    task: task.dir,
    ...(options.runsRoot === undefined ? {} : { root: options.runsRoot }),
    ...(options.argv === undefined ? {} : { argv: options.argv }),
    ...(options.modelSpecs === undefined ? {} : { models: options.modelSpecs }),
  });
  for (const sink of options.sinks ?? []) run.subscribe(sink);
  options.onRun?.(run);
  const settings: ImplementSettings = {
    taskDir: task.dir,
    strategy: options.strategy ?? 'agent',
    sandbox: sandboxKind,
    interpreter,
    gpu: options.gpu ?? false,
    limits: { ...defaultLimits, timeoutMs: task.timeoutS * 1000, ...options.limits },
    agent: agentOptions(options.agent),
    measureStarter: options.measureStarter ?? true,
    ...(options.repeats === undefined || options.repeats === 1 ? {} : { repeats: options.repeats }),
  };
  const gpuNotice = unusedGpuNotice(settings.gpu);
  if (gpuNotice !== undefined) run.emit({ type: 'log', level: 'warn', message: gpuNotice });
  try {
    await saveSettings(run.dir, settings);
    const workspace = await createWorkspace({ task, runDir: run.dir });
    return await continueSession(
      { run, task, workspace, settings },
      {
        models: typeof options.models === 'function' ? options.models(run) : options.models,
        ...(options.ask === undefined ? {} : { ask: options.ask }),
        ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
        ...(options.actions === undefined ? {} : { actions: options.actions }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    run.close('failed', reason);
    throw error;
  }
}
