import { InputError } from '../errors/codify-error.js';
import { existsSync, readFileSync } from 'node:fs';
import { eventLogPath } from './event-log-file.js';
import type { CodifyEvent } from './events.js';
import { parseEventLines, type EventLogProblem } from './parse-event-lines.js';

export interface EventLogContents {
  events: CodifyEvent[];
  /** Lines in the middle of the log that are not events, with their line numbers. */
  problems: EventLogProblem[];
  /** Bytes after the last newline: an event being written, or cut off by a kill; ignored. */
  partialBytes: number;
}

/** Every complete event of a run folder's events.jsonl; never throws on a bad line. */
export function readEvents(runDirectory: string): EventLogContents {
  const path = eventLogPath(runDirectory);
  if (!existsSync(path)) {
    throw new InputError(`${runDirectory} has no events.jsonl: it is not a codify run folder`);
  }
  const buffer = readFileSync(path);
  const parsed = parseEventLines(buffer);
  return {
    events: parsed.events,
    problems: parsed.problems,
    partialBytes: buffer.length - parsed.consumedBytes,
  };
}
