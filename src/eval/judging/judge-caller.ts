import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from '../../llm/types.js';

/**
 * The evaluation's judge model, as the one lifecycle's caller sees it: withRun puts the
 * completed calls of earlier invocations in front of it (answered from the evaluation's
 * log, not paid again), and behind it sits the router made for the paper run being judged
 * (models a test supplies are per run). Runs are judged one at a time, so one target at a
 * time suffices. Every call carries the evaluation's stop signal.
 */
export class JudgeCaller implements ModelCaller {
  private target: ModelCaller | undefined;

  constructor(private readonly signal?: AbortSignal) {}

  /** The router for the run judged next. */
  use(target: ModelCaller): void {
    this.target = target;
  }

  call(request: ModelRequest): Promise<ModelAnswer> {
    return this.current().call(
      this.signal === undefined ? request : { ...request, signal: this.signal },
    );
  }

  levels(role: RoleName): number {
    return this.current().levels(role);
  }

  spec(role: RoleName, level?: number): string {
    return this.current().spec(role, level);
  }

  private current(): ModelCaller {
    if (this.target === undefined) throw new Error('the judge was called before a run was chosen');
    return this.target;
  }
}
