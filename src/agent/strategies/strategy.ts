import type { ModelCaller } from '../../llm/types.js';
import type { FeedbackChannel } from '../../runs/feedback.js';
import type { RunContext } from '../../runs/context.js';
import type { Sandbox, SandboxLimits } from '../../sandbox/types.js';
import type { Task } from '../../tasks/types.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { ActionDefinition } from '../actions/types.js';
import type { AgentOptions } from '../agent-options.js';
import type { BudgetUsage } from '../budgets.js';
import type { AgentCheckpoint } from '../checkpoint.js';

export const strategyNames = ['agent', 'prescribed-plan', 'single-call'] as const;
export type StrategyName = (typeof strategyNames)[number];

/** What a person is shown after each step in interactive mode. */
export interface StepSummary {
  step: number;
  action: string;
  input: unknown;
  thought: string;
  observation: string;
  display: string;
  /** The planner's optional Questions field, one per entry. */
  questions?: string[];
}

export interface Feedback {
  decision: 'approve' | 'comment' | 'stop';
  comment?: string;
}

export type AskFeedback = (summary: StepSummary) => Promise<Feedback>;

/** Everything a strategy works with; built by runImplement or resumeAgent. */
export interface StrategyContext {
  task: Task;
  problem: string;
  /** What the planner's first request shows before its budgets (the starter's listing). */
  firstStep?: string;
  workspace: Workspace;
  sandbox: Sandbox;
  models: ModelCaller;
  run: RunContext;
  interpreter: string;
  limits: SandboxLimits;
  gpu: boolean;
  actions: readonly ActionDefinition[];
  options: AgentOptions;
  ask?: AskFeedback;
  /**
   * The person in the loop, through the feedback channel (requests and answers kept in the
   * run folder); preferred over `ask` when both are given.
   */
  feedback?: FeedbackChannel;
  /** Present when resuming: continue after its step. */
  checkpoint?: AgentCheckpoint;
  signal?: AbortSignal;
}

export type StrategyStatus = 'completed' | 'stopped' | 'failed' | 'budget-exhausted';

export interface StrategyOutcome {
  status: StrategyStatus;
  reason: string;
  usage: BudgetUsage;
  /** The script the strategy ended with; default the task's output. */
  finalScript?: string;
}
