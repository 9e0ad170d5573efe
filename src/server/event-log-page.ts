import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { eventLogPath } from '../runs/event-log-file.js';
import type { CodifyEvent } from '../runs/events.js';
import { parseEventLines, type EventLogProblem } from '../runs/parse-event-lines.js';
import { HttpError } from './http-error.js';

export interface EventLogPage {
  events: CodifyEvent[];
  problems: EventLogProblem[];
  /** Where the next page starts (`?after=`); absent at the end of what is written so far. */
  next?: string;
}

/** Where a page starts: a byte offset at a line boundary, and that line's number. */
interface PageCursor {
  offset: number;
  line: number;
}

const readBytes = 256 * 1024;

/**
 * The events of a run's log from a cursor on, whole lines only, until about `pageBytes` of the
 * log has been read (always at least one line). A 50 MB log is then sent a page at a time,
 * instead of parsed and serialized whole for one request.
 */
export function readEventLogPage(
  runDirectory: string,
  after: string | null,
  pageBytes: number,
): EventLogPage {
  const cursor = parseCursor(after);
  const descriptor = openSync(eventLogPath(runDirectory), 'r');
  try {
    const size = fstatSync(descriptor).size;
    const chunks: Buffer[] = [];
    let position = cursor.offset;
    let read = 0;
    let lastNewline = -1;
    while (position < size && (read < pageBytes || lastNewline === -1)) {
      const chunk = Buffer.alloc(Math.min(readBytes, size - position));
      const bytes = readSync(descriptor, chunk, 0, chunk.length, position);
      if (bytes === 0) break;
      const newline = chunk.subarray(0, bytes).lastIndexOf(0x0a);
      if (newline !== -1) lastNewline = read + newline;
      chunks.push(chunk.subarray(0, bytes));
      position += bytes;
      read += bytes;
    }
    const parsed = parseEventLines(Buffer.concat(chunks, read), cursor.line);
    const end = cursor.offset + parsed.consumedBytes;
    const next: PageCursor = { offset: end, line: cursor.line + parsed.lineCount };
    return {
      events: parsed.events,
      problems: parsed.problems,
      ...(end < size && parsed.consumedBytes > 0 ? { next: `${next.offset}-${next.line}` } : {}),
    };
  } finally {
    closeSync(descriptor);
  }
}

function parseCursor(after: string | null): PageCursor {
  if (after === null) return { offset: 0, line: 1 };
  const match = /^(\d+)-(\d+)$/.exec(after);
  if (match === null) {
    throw new HttpError(400, `after=${after} is not a cursor this server gave (next of a page)`);
  }
  return { offset: Number(match[1]), line: Number(match[2]) };
}
