import type { RunContext } from '../../runs/context.js';
import type { ActionDefinition } from '../actions/types.js';
import { AgentModels } from '../agent-models.js';
import type { AgentOptions } from '../agent-options.js';
import { emptyBudgetUsage, type BudgetUsage } from '../budgets.js';
import type { AgentCheckpoint, ExecutionSeen } from '../checkpoint.js';
import { trackExecutions } from '../execution-tracker.js';
import { initialGuardState } from '../guards/action-guards.js';
import type { StrategyContext, StrategyOutcome } from '../strategies/strategy.js';

export const finalAnswerName = 'Final Answer';

/** Everything the phases of one agent session share: the state that the checkpoint saves and the services around it. */
export interface AgentSession {
  context: StrategyContext;
  options: AgentOptions;
  /** What a checkpoint saves; the phases update it in place. */
  state: AgentCheckpoint;
  usage: BudgetUsage;
  models: AgentModels;
  /** The run's event stream, noticing executions of the output script. */
  run: RunContext;
  seen: { last: ExecutionSeen | null };
  expertHelp: { remaining: number };
  finalAction: ActionDefinition | undefined;
  /** Brings usage.elapsedMs up to date. */
  tick(): void;
  outcome(status: StrategyOutcome['status'], reason: string): StrategyOutcome;
}

function initialCheckpoint(context: StrategyContext): AgentCheckpoint {
  return {
    version: 1,
    step: 0,
    recentSteps: [],
    researchLog: [],
    guard: initialGuardState(),
    usage: emptyBudgetUsage(),
    expertHelpRemaining: context.options.expertHelpLimit,
    pendingComment: null,
    failedSteps: 0,
    forcedFinal: null,
    files: {},
    lastExecution: null,
    finalScript: null,
    finished: null,
  };
}

/** A session from the context's checkpoint (resume) or from the start. */
export function openSession(context: StrategyContext): AgentSession {
  const { options } = context;
  const state: AgentCheckpoint = structuredClone(context.checkpoint ?? initialCheckpoint(context));
  const usage = state.usage;
  const elapsedBefore = usage.elapsedMs;
  const sessionStart = Date.now();
  const tick = (): void => {
    usage.elapsedMs = elapsedBefore + (Date.now() - sessionStart);
  };
  const seen = { last: state.lastExecution };
  return {
    context,
    options,
    state,
    usage,
    models: new AgentModels(context.models, usage, {
      planning: options.planningTemperature,
      worker: options.workerTemperature,
    }),
    run: trackExecutions(context.run, context.workspace.root, context.task.output, seen),
    seen,
    expertHelp: { remaining: state.expertHelpRemaining },
    finalAction: context.actions.find((action) => action.name === finalAnswerName),
    tick,
    outcome: (status, reason) => {
      tick();
      return {
        status,
        reason,
        usage,
        ...(state.finalScript === null ? {} : { finalScript: state.finalScript }),
      };
    },
  };
}
