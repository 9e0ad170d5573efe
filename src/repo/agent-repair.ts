import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { allActions } from '../agent/actions/index.js';
import { agentOptions, type AgentOptions } from '../agent/agent-options.js';
import { runAgentStrategy } from '../agent/strategies/agent.js';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import type { RunContext } from '../runs/context.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { LocalWorkspace } from '../workspace/local-workspace.js';
import { VersionStore } from '../workspace/version-store.js';
import type { Plan } from './planning.js';
import type { Repairer, SmokeRun } from './verify.js';

export interface AgentRepairOptions {
  repoDir: string;
  plan: Plan;
  design: string;
  models: ModelCaller;
  run: RunContext;
  sandbox: Sandbox;
  interpreter: string;
  limits: SandboxLimits;
  gpu: boolean;
  /** Whether the repair's runs may reach the network (`--network`). */
  network: boolean;
  pythonRequires: string[];
  agent?: Partial<AgentOptions>;
  /** Ctrl-C or SIGTERM: the repair stops after cancelling its step in flight. */
  signal?: AbortSignal;
}

/** The repository as a task for the research agent: every file writable, the smoke run as the goal. */
function repairTask(options: AgentRepairOptions, failure: SmokeRun): Task {
  const entry = options.plan.logic.entryPoint;
  const statement = loadPrompt('repo-repair', {
    command: `python ${entry} --config config_smoke.yaml`,
    attempt: failure.timedOut ? ' (it timed out)' : ` (exit code ${String(failure.exitCode)})`,
    output: failure.outputTail,
    design: options.design,
    entry,
  });
  return {
    dir: options.repoDir,
    name: 'repair',
    format: 'codify',
    entrypoint: entry,
    output: entry,
    args: ['--config', 'config_smoke.yaml'],
    timeoutS: Math.round(options.limits.timeoutMs / 1000),
    pythonRequires: options.pythonRequires,
    network: options.network,
    files: {
      methodology: statement,
      starterCode: '',
      subparts: [],
      problemStatement: statement,
    },
    // Read-only inside the sandbox too (Execute Script mounts task inputs read-only).
    inputFiles: ['.git'],
  };
}

/**
 * The verify stage's repairer: the research agent of `codify implement`, working directly
 * in the generated repository (versions kept under `<run>/repair-<n>/`), with the smoke
 * run's error as its problem and the steps left in the budget as its step limit.
 */
export function agentRepairer(options: AgentRepairOptions): Repairer {
  let round = 0;
  return async (failure, stepsLeft) => {
    round += 1;
    const versionsDir = join(options.run.dir, `repair-${round}`);
    mkdirSync(versionsDir, { recursive: true });
    const task = repairTask(options, failure);
    const workspace = new LocalWorkspace({
      root: realpathSync(options.repoDir),
      readOnly: ['.git'],
      example: task.entrypoint,
      outputExample: task.entrypoint,
      versions: await VersionStore.open(versionsDir),
    });
    const outcome = await runAgentStrategy({
      task,
      problem: task.files.problemStatement ?? '',
      workspace,
      sandbox: options.sandbox,
      models: options.models,
      run: options.run,
      interpreter: options.interpreter,
      limits: options.limits,
      gpu: options.gpu,
      actions: allActions,
      options: agentOptions({ ...options.agent, maxSteps: stepsLeft, interactive: false }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    options.run.emit({
      type: 'log',
      level: outcome.status === 'completed' ? 'info' : 'warn',
      message: `repair round ${round}: ${outcome.status} after ${outcome.usage.steps} steps (${outcome.reason})`,
    });
    return { steps: outcome.usage.steps };
  };
}
