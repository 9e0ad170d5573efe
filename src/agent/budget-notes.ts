import type { AgentOptions } from './agent-options.js';
import type { BudgetUsage } from './budgets.js';
import type { ExecutionSeen } from './checkpoint.js';

export interface BudgetState {
  step: number;
  options: AgentOptions;
  usage: BudgetUsage;
  /** Expert-help calls left, when the action is offered at all. */
  expertHelpLeft?: number;
  lastExecution: ExecutionSeen | null;
  /** The action that ends the run, when offered: the last step must be it. */
  finalAction?: string;
}

const minutes = (ms: number): string => (ms / 60_000).toFixed(1);

/**
 * What the planner has left to spend, one line each: the steps, the expert help, any time,
 * token or cost budget, and how long the output script's last run took (so it can judge
 * whether another full run fits).
 */
export function budgetLines(state: BudgetState): string[] {
  const { step, options, usage } = state;
  const left = Math.max(0, options.maxSteps - step);
  const lines = [
    left === 0 && state.finalAction !== undefined
      ? `Steps: this is step ${step} of at most ${options.maxSteps}, the last: your action must be ${state.finalAction}, with the best script you have.`
      : `Steps: this is step ${step} of at most ${options.maxSteps} (${left} left after it).`,
  ];
  if (state.expertHelpLeft !== undefined) {
    lines.push(
      `Request Planning Expert Help: ${state.expertHelpLeft} of ${options.expertHelpLimit} calls left.`,
    );
  }
  if (options.maxMinutes !== null) {
    lines.push(`Time: ${minutes(usage.elapsedMs)} of ${options.maxMinutes} minutes used.`);
  }
  if (options.maxTokens !== null) {
    const tokens = usage.inputTokens + usage.outputTokens;
    lines.push(`Tokens: ${tokens} of ${options.maxTokens} used.`);
  }
  if (options.maxCostUsd !== null && usage.costUsd !== null) {
    lines.push(`Cost: $${usage.costUsd.toFixed(2)} of $${options.maxCostUsd} spent.`);
  }
  const last = state.lastExecution;
  if (last?.durationMs !== undefined) {
    lines.push(
      `The last run of ${last.script} took ${(last.durationMs / 1000).toFixed(1)} s${last.timedOut ? ' (stopped at the time limit)' : ''}.`,
    );
  } else {
    lines.push('The output script has not been run yet in this session.');
  }
  return lines;
}
