import type { CodifyEvent } from '../../runs/events.js';

/**
 * How long a run was worked on: from each run-start to the last event before the next
 * run-start (or the end), summed, so the hours a killed run waited for its resume do not count.
 */
export function activeTimeMs(events: readonly CodifyEvent[]): number {
  let total = 0;
  let segmentStart: number | undefined;
  let last: number | undefined;
  for (const event of events) {
    const time = Date.parse(event.time);
    if (Number.isNaN(time)) continue;
    if (event.type === 'run-start') {
      if (segmentStart !== undefined && last !== undefined) total += last - segmentStart;
      segmentStart = time;
    }
    last = time;
  }
  if (segmentStart !== undefined && last !== undefined) total += last - segmentStart;
  return total;
}
