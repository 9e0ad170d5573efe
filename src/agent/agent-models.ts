import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from '../llm/types.js';
import type { BudgetUsage } from './budgets.js';

/**
 * The ModelCaller the agent and its actions use: it gives each role the agent's default
 * temperature (planning roles hot, workers cool) and adds every answer to the run's usage.
 */
export class AgentModels implements ModelCaller {
  constructor(
    private readonly inner: ModelCaller,
    private readonly usage: BudgetUsage,
    private readonly temperatures: { planning: number; worker: number },
  ) {}

  async call(request: ModelRequest): Promise<ModelAnswer> {
    const planning = request.role === 'planner' || request.role === 'expert';
    const temperature =
      request.temperature ?? (planning ? this.temperatures.planning : this.temperatures.worker);
    const answer = await this.inner.call({ ...request, temperature });
    this.usage.calls += 1;
    this.usage.inputTokens += answer.usage.inputTokens;
    this.usage.outputTokens += answer.usage.outputTokens;
    this.usage.cachedInputTokens += answer.usage.cachedInputTokens;
    this.usage.costUsd =
      this.usage.costUsd === null || answer.costUsd === null
        ? null
        : this.usage.costUsd + answer.costUsd;
    return answer;
  }

  levels(role: RoleName): number {
    return this.inner.levels(role);
  }

  spec(role: RoleName, level?: number): string {
    return this.inner.spec(role, level);
  }
}
