import { runAgentStrategy } from './agent.js';
import { runPrescribedPlan } from './prescribed-plan.js';
import { runSingleCall } from './single-call.js';
import type { StrategyContext, StrategyName, StrategyOutcome } from './strategy.js';

const strategies: Record<StrategyName, (context: StrategyContext) => Promise<StrategyOutcome>> = {
  agent: runAgentStrategy,
  'prescribed-plan': runPrescribedPlan,
  'single-call': runSingleCall,
};

/** Runs one of the strategies (`--strategy`). */
export function runStrategy(
  name: StrategyName,
  context: StrategyContext,
): Promise<StrategyOutcome> {
  return strategies[name](context);
}
