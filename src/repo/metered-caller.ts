import type { ModelAnswer, ModelCaller, ModelRequest } from '../llm/types.js';

export interface StageUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Dollars; null once any call had an unknown price. */
  costUsd: number | null;
}

const emptyStage = (): StageUsage => ({
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: 0,
});

/** A ModelCaller that adds every answer's usage and cost to the current stage's tally. */
export class MeteredCaller implements ModelCaller {
  readonly stages = new Map<string, StageUsage>();
  stage = 'setup';

  constructor(private readonly inner: ModelCaller) {}

  async call(request: ModelRequest): Promise<ModelAnswer> {
    const answer = await this.inner.call(request);
    const tally = this.stages.get(this.stage) ?? emptyStage();
    tally.calls += 1;
    tally.inputTokens += answer.usage.inputTokens;
    tally.outputTokens += answer.usage.outputTokens;
    tally.cachedInputTokens += answer.usage.cachedInputTokens;
    tally.costUsd =
      tally.costUsd === null || answer.costUsd === null ? null : tally.costUsd + answer.costUsd;
    this.stages.set(this.stage, tally);
    return answer;
  }

  levels(role: ModelRequest['role']): number {
    return this.inner.levels(role);
  }

  spec(role: ModelRequest['role'], level?: number): string {
    return this.inner.spec(role, level);
  }
}
