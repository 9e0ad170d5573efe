import { closeSync, openSync, readSync } from 'node:fs';
import { eventLogPath } from './event-log-file.js';
import type { CodifyEvent } from './events.js';
import { parseEventLine } from './parse-event-lines.js';

const headBytes = 64 * 1024;

/** The first event of an open log (normally run-start), reading only its first line. */
export function readFirstEventFrom(descriptor: number, size: number): CodifyEvent | undefined {
  const chunk = Buffer.alloc(Math.min(size, headBytes));
  const read = readSync(descriptor, chunk, 0, chunk.length, 0);
  const newline = chunk.subarray(0, read).indexOf(0x0a);
  if (newline === -1) return undefined;
  const parsed = parseEventLine(chunk.toString('utf8', 0, newline));
  return typeof parsed === 'string' ? undefined : parsed;
}

/** The first event of a run folder's log. */
export function readFirstEvent(runDirectory: string): CodifyEvent | undefined {
  const descriptor = openSync(eventLogPath(runDirectory), 'r');
  try {
    return readFirstEventFrom(descriptor, headBytes);
  } finally {
    closeSync(descriptor);
  }
}
