import type { CodifyEvent } from './events.js';

/** A line of the log that is not an event, by its 1-based line number. */
export interface EventLogProblem {
  line: number;
  message: string;
}

export interface ParsedEventLines {
  events: CodifyEvent[];
  problems: EventLogProblem[];
  /** Bytes of complete lines read; the rest is a line still being written. */
  consumedBytes: number;
  /** Complete lines read, so the next chunk can number its lines. */
  lineCount: number;
}

const newline = 0x0a;

/**
 * Parses the complete lines of a chunk of events.jsonl. A trailing piece without its newline is
 * not consumed: it is an event being written (or the remains of a killed writer).
 */
export function parseEventLines(buffer: Buffer, firstLine = 1): ParsedEventLines {
  const events: CodifyEvent[] = [];
  const problems: EventLogProblem[] = [];
  let start = 0;
  let lineCount = 0;
  for (;;) {
    const end = buffer.indexOf(newline, start);
    if (end === -1) break;
    const lineNumber = firstLine + lineCount;
    lineCount += 1;
    const text = buffer.toString('utf8', start, end).trim();
    start = end + 1;
    if (text === '') continue;
    const parsed = parseEventLine(text);
    if (typeof parsed === 'string') problems.push({ line: lineNumber, message: parsed });
    else events.push(parsed);
  }
  return { events, problems, consumedBytes: start, lineCount };
}

/** One line to an event, or the reason it is not one. */
export function parseEventLine(text: string): CodifyEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!isEvent(value)) return 'JSON but not an event (needs type, seq and time)';
  return value;
}

function isEvent(value: unknown): value is CodifyEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.type === 'string' &&
    typeof record.seq === 'number' &&
    typeof record.time === 'string'
  );
}
