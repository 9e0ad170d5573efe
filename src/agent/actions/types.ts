import type { z } from 'zod';
import type { ModelCaller } from '../../llm/types.js';
import type { RunContext } from '../../runs/context.js';
import type { Sandbox, SandboxLimits } from '../../sandbox/types.js';
import type { Task } from '../../tasks/types.js';
import type { Workspace } from '../../workspace/workspace.js';

/** ResearchCodeAgent's action pools; the guards cap consecutive actions from one pool. */
export type ActionPool = 'understanding' | 'coding' | 'general';

/** What an action returns: what the model sees, kept apart from what a person is shown. */
export interface ActionResult {
  ok: boolean;
  observation: string;
  display: string;
  /** Set by Final Answer: the run should end. */
  final?: boolean;
}

/** Everything an action may use. Built once per run by the agent. */
export interface ActionContext {
  task: Task;
  workspace: Workspace;
  sandbox: Sandbox;
  models: ModelCaller;
  run: RunContext;
  /** Absolute path of the Python interpreter chosen for the task. */
  interpreter: string;
  limits: SandboxLimits;
  gpu: boolean;
  /** The research log (long-term memory) so far, for Reflection. */
  researchLog(): string;
  /** How many Request Planning Expert Help calls are left in this run; the action decrements it. */
  expertHelp: { remaining: number };
  /** Current step number, for events. */
  step: number;
  /**
   * The part of the method an edit serves (a prescribed plan's sub-part), shown to the
   * editor instead of the whole methodology.
   */
  methodology?: string;
  signal?: AbortSignal;
}

export interface ActionDefinition<Input = unknown> {
  /** The name the model writes in its Action field, e.g. `Execute Script`. */
  name: string;
  /** One or two sentences for the planner's list of actions. */
  description: string;
  pool: ActionPool;
  /** The input, validated before the action runs. */
  inputSchema: z.ZodType<Input>;
  /** An example Action Input, shown to the model as the usage to follow. */
  usage: Record<string, unknown>;
  /** Never throws: every failure is an observation with a reason. */
  run(input: Input, context: ActionContext): Promise<ActionResult>;
}
