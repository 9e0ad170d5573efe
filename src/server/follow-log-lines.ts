import { open, type FileHandle } from 'node:fs/promises';
import type { CodifyEvent } from '../runs/events.js';
import { parseEventLine } from '../runs/parse-event-lines.js';

export interface LogLine {
  /** The line as written: one event's JSON, forwarded without serializing it again. */
  text: string;
  event: CodifyEvent;
}

export interface FollowLogLinesOptions {
  pollMs?: number;
  /** The most bytes read from the file at a time, so memory does not grow with the log. */
  chunkBytes?: number;
}

const newline = 0x0a;

/**
 * Hands every event line of a log to `onLine`, the ones already there first, then each one
 * appended, until the signal aborts. Unlike reading the log whole, this reads at most
 * `chunkBytes` at a time and waits for `onLine` (which may wait for a slow client) before
 * reading on, so a slow consumer holds back the reading instead of the server buffering the
 * log for it. Lines that are not events are skipped; a line still being written waits.
 */
export async function followLogLines(
  path: string,
  onLine: (line: LogLine) => void | Promise<void>,
  signal: AbortSignal,
  options: FollowLogLinesOptions = {},
): Promise<void> {
  const pollMs = options.pollMs ?? 250;
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  let file: FileHandle | undefined;
  let offset = 0;
  let pending = Buffer.alloc(0);
  try {
    while (!signal.aborted) {
      file ??= await openIfPresent(path);
      const size = file === undefined ? 0 : (await file.stat()).size;
      if (file === undefined || size === offset) {
        await sleep(pollMs, signal);
        continue;
      }
      if (size < offset) {
        // Only a torn last line is ever cut (when a run is resumed); go on from the new end.
        offset = size;
        pending = Buffer.alloc(0);
        continue;
      }
      const chunk = Buffer.alloc(Math.min(chunkBytes, size - offset));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, offset);
      offset += bytesRead;
      pending =
        pending.length === 0
          ? chunk.subarray(0, bytesRead)
          : Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let end = pending.indexOf(newline); end !== -1; end = pending.indexOf(newline, start)) {
        const text = pending.toString('utf8', start, end).trim();
        start = end + 1;
        if (text === '') continue;
        const event = parseEventLine(text);
        if (typeof event !== 'string') await onLine({ text, event });
        if (signal.aborted) return;
      }
      pending = Buffer.from(pending.subarray(start));
    }
  } finally {
    await file?.close();
  }
}

async function openIfPresent(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
