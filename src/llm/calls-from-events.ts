import type { CodifyEvent, EventOf } from '../runs/events.js';
import type { RecordedCall } from './recorded-call.js';

/**
 * The model calls of a run, as its event log holds them (llm-end events), walked the way
 * `codify resume` continues a run: a resume restarts after the last step-end that carries a
 * checkpoint, and the calls the stopped process made after it are asked again. Since the
 * one lifecycle, those are answered from the log (no second llm-end), so they stay in the
 * history; logs written before it hold a second llm-end for each, and the later one replaces
 * the earlier.
 */
interface CallHistory {
  /** Calls that belong to a completed step (up to the last checkpoint). */
  committed: EventOf<'llm-end'>[];
  /** Calls after the last checkpoint, by the process that wrote the end of the log. */
  pending: EventOf<'llm-end'>[];
}

function callHistory(events: readonly CodifyEvent[]): CallHistory {
  const committed: EventOf<'llm-end'>[] = [];
  let pending: EventOf<'llm-end'>[] = [];
  // Calls of the unfinished step made before the latest resume: a later copy replaces one.
  let beforeResume: EventOf<'llm-end'>[] = [];
  for (const event of events) {
    if (event.type === 'llm-end') {
      const repeated = beforeResume.findIndex((call) => sameRequest(call, event));
      if (repeated >= 0) {
        const [dropped] = beforeResume.splice(repeated, 1);
        pending = pending.filter((call) => call !== dropped);
      }
      pending.push(event);
    } else if (event.type === 'step-end' && event.checkpoint !== undefined) {
      committed.push(...pending);
      pending = [];
      beforeResume = [];
    } else if (event.type === 'run-start' && event.resumedFrom !== undefined) {
      beforeResume = [...pending];
    }
  }
  return { committed, pending };
}

const sameRequest = (first: EventOf<'llm-end'>, second: EventOf<'llm-end'>): boolean =>
  first.role === second.role &&
  (first.system ?? '') === (second.system ?? '') &&
  JSON.stringify(first.messages) === JSON.stringify(second.messages);

/**
 * How many model calls a resume does not pay again: the calls of the run's history (those
 * before the checkpoint it continues from are not asked; those after it are answered from
 * the log). A replayed resume starts the recording after them.
 */
export function callsInHistory(events: readonly CodifyEvent[]): number {
  const { committed, pending } = callHistory(events);
  return committed.length + pending.length;
}

/** Every model call of the run, in order, as a recording that `replay:` can answer from. */
export function recordedCallsFromEvents(events: readonly CodifyEvent[]): RecordedCall[] {
  const { committed, pending } = callHistory(events);
  return [...committed, ...pending].map((event, index) => ({
    call: index + 1,
    role: event.role,
    model: event.model,
    ...(event.system === undefined ? {} : { system: event.system }),
    messages: event.messages,
    text: event.text,
    usage: event.usage,
    costUsd: event.costUsd,
  }));
}
