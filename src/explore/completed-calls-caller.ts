import type { EventOf } from '../runs/events.js';
import { storedMessages } from '../llm/stored-messages.js';
import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from '../llm/types.js';

const sameRequest = (request: ModelRequest, event: EventOf<'llm-end'>): boolean =>
  request.role === event.role &&
  (request.system ?? '') === (event.system ?? '') &&
  // Files are logged by hash (StoredFile), so the request is compared in that form.
  JSON.stringify(storedMessages(request.messages)) === JSON.stringify(event.messages);

/**
 * Resuming an exploration: the pipeline is deterministic given the model's answers, so it
 * asks again exactly what it asked before. Each request equal to the next completed call
 * of the interrupted process is answered from the log (paid once, not twice); from the
 * first request that differs, or once the log is used up, calls go to the model.
 */
export class CompletedCallsCaller implements ModelCaller {
  private next = 0;
  reused = 0;

  constructor(
    private readonly completed: readonly EventOf<'llm-end'>[],
    private readonly inner: ModelCaller,
  ) {}

  call(request: ModelRequest): Promise<ModelAnswer> {
    const event = this.completed[this.next];
    if (event !== undefined && sameRequest(request, event)) {
      this.next += 1;
      this.reused += 1;
      return Promise.resolve({
        callId: event.callId,
        role: event.role,
        model: event.model,
        text: event.text,
        usage: event.usage,
        costUsd: event.costUsd,
        latencyMs: event.latencyMs,
        attempts: event.attempts,
      });
    }
    // A different request means the earlier answers no longer apply past this point.
    this.next = this.completed.length;
    return this.inner.call(request);
  }

  levels(role: RoleName): number {
    return this.inner.levels(role);
  }

  spec(role: RoleName, level?: number): string {
    return this.inner.spec(role, level);
  }
}
