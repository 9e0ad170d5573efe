import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { eventLogPath } from './event-log-file.js';
import type { CodifyEvent } from './events.js';
import { parseEventLines, type EventLogProblem } from './parse-event-lines.js';

export interface FollowOptions {
  /** Milliseconds between looks at the file. */
  pollMs?: number;
  /** Resolve at a run-end that is the last event of the log, instead of waiting for the signal. */
  untilRunEnd?: boolean;
  /** Called for a line that is not an event; default: skipped silently. */
  onProblem?: (problem: EventLogProblem) => void;
}

/**
 * Calls onEvent for every event of a run's log, the ones already there first, then each new
 * one as it is appended, only ever whole lines. Resolves when the signal aborts (or at run-end
 * with `untilRunEnd`); waits for events.jsonl to appear if the run is just starting.
 */
export async function followEvents(
  runDirectory: string,
  onEvent: (event: CodifyEvent) => void,
  signal?: AbortSignal,
  options: FollowOptions = {},
): Promise<void> {
  const path = eventLogPath(runDirectory);
  const pollMs = options.pollMs ?? 200;
  let descriptor: number | undefined;
  let offset = 0;
  let nextLine = 1;
  let pending = Buffer.alloc(0);
  try {
    while (signal?.aborted !== true) {
      if (descriptor === undefined && existsSync(path)) descriptor = openSync(path, 'r');
      if (descriptor !== undefined) {
        const size = fstatSync(descriptor).size;
        if (size > offset) {
          const chunk = Buffer.alloc(size - offset);
          const read = readSync(descriptor, chunk, 0, chunk.length, offset);
          offset += read;
          pending = Buffer.concat([pending, chunk.subarray(0, read)]);
          const parsed = parseEventLines(pending, nextLine);
          pending = pending.subarray(parsed.consumedBytes);
          nextLine += parsed.lineCount;
          for (const problem of parsed.problems) options.onProblem?.(problem);
          for (const event of parsed.events) onEvent(event);
          // A run-end followed by more events was a run that was resumed: keep going.
          const caughtUp = offset === fstatSync(descriptor).size && pending.length === 0;
          if (
            options.untilRunEnd === true &&
            caughtUp &&
            parsed.events.at(-1)?.type === 'run-end'
          ) {
            return;
          }
        } else if (size < offset) {
          // Only a torn last line is ever cut (by openRun); continue from the new end.
          offset = size;
          pending = Buffer.alloc(0);
        }
      }
      await sleep(pollMs, signal);
    }
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
