import type { CodifyEvent, EventOf } from '../runs/events.js';
import { storedMessages } from './stored-messages.js';
import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from './types.js';

/** What makes two requests the same call: role, system prompt and messages (files by hash). */
function requestKey(role: RoleName, system: string | undefined, messages: unknown): string {
  return JSON.stringify([role, system ?? '', messages]);
}

/**
 * Resuming a run: the pipelines are deterministic given the model's answers, so a resumed
 * run asks again what the interrupted process asked. A request equal to a call that process
 * completed is answered from the log (paid once, not twice; no new llm-end is written, so
 * totals count it once); any other request goes to the model. Equal requests (several
 * reviewer samples of one prompt) take the logged answers in their logged order.
 */
export class CompletedCallsCaller implements ModelCaller {
  private readonly waiting = new Map<string, EventOf<'llm-end'>[]>();
  reused = 0;

  constructor(
    completed: readonly EventOf<'llm-end'>[],
    private readonly inner: ModelCaller,
  ) {
    for (const event of completed) {
      const key = requestKey(event.role, event.system, event.messages);
      const queue = this.waiting.get(key) ?? [];
      queue.push(event);
      this.waiting.set(key, queue);
    }
  }

  /** A caller over the llm-end events of a run's earlier processes. */
  static fromEvents(events: readonly CodifyEvent[], inner: ModelCaller): CompletedCallsCaller {
    return new CompletedCallsCaller(
      events.filter((event): event is EventOf<'llm-end'> => event.type === 'llm-end'),
      inner,
    );
  }

  /** Completed calls not asked again (yet). */
  get unused(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  call(request: ModelRequest): Promise<ModelAnswer> {
    const key = requestKey(request.role, request.system, storedMessages(request.messages));
    const event = this.waiting.get(key)?.shift();
    if (event === undefined) return this.inner.call(request);
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

  levels(role: RoleName): number {
    return this.inner.levels(role);
  }

  spec(role: RoleName, level?: number): string {
    return this.inner.spec(role, level);
  }
}
