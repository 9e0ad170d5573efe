import { truncateMiddle } from '../../../src/agent/actions/truncate-text.js';
import type { CodifyEvent } from '../../../src/runs/events.js';

/**
 * The whole reason of a saved edit. The version store keeps `Action: instruction` with the
 * instruction cut to its head and tail; the action's input in the log holds all of it. The
 * action whose input, cut the same way, gives the stored reason is the one; undefined when
 * the reason was not cut or no action matches.
 */
export function fullEditReason(reason: string, events: readonly CodifyEvent[]): string | undefined {
  if (!/\[\.\.\. \d+ characters omitted \.\.\.\]/.test(reason)) return undefined;
  for (const event of events) {
    if (event.type !== 'action-start' || !reason.startsWith(`${event.action}: `)) continue;
    const stored = reason.slice(event.action.length + 2);
    const input = event.input;
    if (typeof input !== 'object' || input === null) continue;
    for (const value of Object.values(input as Record<string, unknown>)) {
      if (typeof value !== 'string' || value.length <= 200) continue;
      if (truncateMiddle(value, 200) === stored) return `${event.action}: ${value}`;
    }
  }
  return undefined;
}
