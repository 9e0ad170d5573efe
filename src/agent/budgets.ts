import type { AgentOptions } from './agent-options.js';

/** What the run has spent so far; kept in every checkpoint so a resumed run goes on counting. */
export interface BudgetUsage {
  steps: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Dollars; null once any call had an unknown price. */
  costUsd: number | null;
  elapsedMs: number;
}

export const emptyBudgetUsage = (): BudgetUsage => ({
  steps: 0,
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: 0,
  elapsedMs: 0,
});

export interface ExhaustedBudget {
  budget: 'steps' | 'time' | 'tokens' | 'cost';
  message: string;
}

/** The first budget the usage has reached, if any. */
export function exhaustedBudget(
  options: AgentOptions,
  usage: BudgetUsage,
): ExhaustedBudget | undefined {
  if (usage.steps >= options.maxSteps) {
    return { budget: 'steps', message: `the step budget of ${options.maxSteps} steps is used up` };
  }
  if (options.maxMinutes !== null && usage.elapsedMs >= options.maxMinutes * 60_000) {
    return {
      budget: 'time',
      message: `the time budget of ${options.maxMinutes} minutes is used up`,
    };
  }
  const tokens = usage.inputTokens + usage.outputTokens;
  if (options.maxTokens !== null && tokens >= options.maxTokens) {
    return {
      budget: 'tokens',
      message: `the token budget of ${options.maxTokens} tokens is used up (${tokens} used)`,
    };
  }
  if (
    options.maxCostUsd !== null &&
    usage.costUsd !== null &&
    usage.costUsd >= options.maxCostUsd
  ) {
    return {
      budget: 'cost',
      message: `the cost budget of $${options.maxCostUsd} is used up ($${usage.costUsd.toFixed(4)} spent)`,
    };
  }
  return undefined;
}
