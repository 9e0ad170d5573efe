import { resolve } from 'node:path';
import type { ModelCaller, RoleName } from '../llm/types.js';
import type { EventSink } from '../runs/events.js';
import type { FeedbackChannel } from '../runs/feedback.js';
import { withRun, type RunScope } from '../runs/lifecycle.js';
import type { Run } from '../runs/run.js';
import type { RunHost } from '../runs/run-host.js';
import { createSandbox, defaultLimits, type SandboxKind } from '../sandbox/index.js';
import { unusedGpuNotice } from '../sandbox/gpus.js';
import { describeNoInterpreter, findInterpreter } from '../sandbox/interpreters.js';
import type { SandboxLimits } from '../sandbox/types.js';
import { loadTask } from '../tasks/load-task.js';
import type { Task } from '../tasks/types.js';
import { createWorkspace } from '../workspace/create-workspace.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ActionDefinition } from './actions/types.js';
import { type AgentOptions, agentOptions } from './agent-options.js';
import { EnvironmentError } from '../errors/codify-error.js';
import type { ImplementResult } from './final-result.js';
import { type ImplementSettings, saveSettings } from './implement-settings.js';
import { implementStages } from './implement-stages.js';
import type { AskFeedback, StrategyName } from './strategies/strategy.js';

/** What an implement run is asked to do: the settings every front end fills in. */
export interface ImplementRequest {
  /** The task folder. */
  taskDir: string;
  strategy?: StrategyName;
  sandbox?: SandboxKind;
  /** The Python interpreter; default the first one that imports the task's required modules. */
  python?: string;
  gpu?: boolean;
  /** Untraced runs of the starter and of the final script, compared by mean and spread (default 1). */
  repeats?: number;
  agent?: Partial<AgentOptions>;
  limits?: Partial<SandboxLimits>;
  /** Run the starter code first when starter_code_performance.txt is missing (default true). */
  measureStarter?: boolean;
  /** Go on to the agent when the starter fails or prints no metric (default: stop before any model call). */
  allowBrokenStarter?: boolean;
  /** The model specs per role, recorded in run-start. */
  modelSpecs?: Partial<Record<RoleName, string[]>>;
}

/** What tests and embedders may swap in. */
export interface ImplementHooks {
  /** The actions the agent may use; default all of src/agent/actions. */
  actions?: readonly ActionDefinition[];
  /** Called after each step when agent.interactive is true (the terminal's older hook). */
  ask?: AskFeedback;
}

/** The models, or a factory given the run (so a router can record its calls there). */
export type ImplementModels = ModelCaller | ((run: Run) => ModelCaller);

/** A run being worked on: what a new and a resumed implement run share. */
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
    throw new EnvironmentError(describeNoInterpreter(task.pythonRequires, choice.failures));
  }
  return explicit !== undefined ? resolve(explicit) : choice.chosen.path;
}

/** Everything checked before a run folder exists: the task, an interpreter, the sandbox. */
async function prepare(
  request: ImplementRequest,
): Promise<{ task: Task; settings: ImplementSettings }> {
  const task = await loadTask(request.taskDir);
  const interpreter = await chooseInterpreter(task, request.python);
  const sandbox = request.sandbox ?? 'bubblewrap';
  // Checked before the run folder exists, so a missing sandbox leaves no empty run behind.
  await createSandbox(sandbox);
  const settings: ImplementSettings = {
    taskDir: task.dir,
    strategy: request.strategy ?? 'agent',
    sandbox,
    interpreter,
    gpu: request.gpu ?? false,
    limits: { ...defaultLimits, timeoutMs: task.timeoutS * 1000, ...request.limits },
    agent: agentOptions(request.agent),
    measureStarter: request.measureStarter ?? true,
    ...(request.allowBrokenStarter === true ? { allowBrokenStarter: true } : {}),
    ...(request.repeats === undefined || request.repeats === 1 ? {} : { repeats: request.repeats }),
  };
  return { task, settings };
}

/**
 * `codify implement`: loads the task, then runs the one lifecycle (src/runs/lifecycle.ts)
 * with implement's stages: measure the starter, run the strategy, measure the final script
 * and write result.json. Throws only for the user's mistakes (bad task folder, no
 * interpreter, no sandbox, a starter that fails) and stops; afterwards every failure is in
 * the result.
 */
export async function implement(
  request: ImplementRequest,
  host: RunHost,
  models: ImplementModels,
  hooks: ImplementHooks = {},
): Promise<ImplementResult> {
  const { task, settings } = await prepare(request);
  return withRun(
    {
      mode: 'implement',
      name: task.name,
      task: task.dir,
      ...(request.modelSpecs === undefined ? {} : { models: request.modelSpecs }),
    },
    host,
    (run) => (typeof models === 'function' ? models(run) : models),
    async (scope: RunScope) => {
      const gpuNotice = unusedGpuNotice(settings.gpu);
      if (gpuNotice !== undefined)
        scope.run.emit({ type: 'log', level: 'warn', message: gpuNotice });
      await saveSettings(scope.run.dir, settings);
      const workspace = await createWorkspace({ task, runDir: scope.run.dir });
      return implementStages(scope, { run: scope.run, task, workspace, settings }, hooks);
    },
  );
}

/**
 * The options object of earlier versions (settings, host and models in one), still taken by
 * the library's `runImplement`.
 */
export interface ImplementOptions extends ImplementRequest, ImplementHooks {
  models: ImplementModels;
  feedback?: FeedbackChannel;
  runsRoot?: string;
  sinks?: EventSink[];
  argv?: string[];
  signal?: AbortSignal;
  onRun?: (run: Run) => void;
}

/** `implement` with its settings, host and models in one object. */
export function runImplement(options: ImplementOptions): Promise<ImplementResult> {
  const { models, feedback, runsRoot, sinks, argv, signal, onRun, actions, ask, ...request } =
    options;
  const host: RunHost = { runsRoot, sinks, argv, signal, onRun, feedback };
  return implement(request, host, models, { actions, ask });
}
