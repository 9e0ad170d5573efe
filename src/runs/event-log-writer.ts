import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import type { CodifyEvent } from './events.js';

/**
 * Appends events to events.jsonl, one synchronous write per line on an O_APPEND descriptor:
 * a line reaches the kernel whole, so a killed process loses at most the event being written
 * and concurrent writers never interleave inside a line.
 */
export class EventLogWriter {
  private descriptor: number | undefined;

  private constructor(
    readonly path: string,
    descriptor: number,
  ) {
    this.descriptor = descriptor;
  }

  /** Opens (creating if needed) for appending. */
  static open(path: string): EventLogWriter {
    return new EventLogWriter(path, openSync(path, 'a'));
  }

  /**
   * Opens an existing log for appending after a crash. A last line without its newline is the
   * event that was being written when the process died; it is cut off so the next event starts
   * on a line of its own. Returns the number of bytes dropped.
   */
  static reopen(path: string): { writer: EventLogWriter; droppedBytes: number } {
    const descriptor = openSync(path, 'r+');
    try {
      const droppedBytes = cutPartialLastLine(descriptor);
      closeSync(descriptor);
      return { writer: EventLogWriter.open(path), droppedBytes };
    } catch (error) {
      closeSync(descriptor);
      throw error;
    }
  }

  append(event: CodifyEvent): void {
    if (this.descriptor === undefined) throw new Error(`event log ${this.path} is closed`);
    const bytes = Buffer.from(`${JSON.stringify(event)}\n`, 'utf8');
    let written = 0;
    // A regular file takes the whole buffer in one write; the loop only guards against a short write.
    while (written < bytes.length) {
      written += writeSync(this.descriptor, bytes, written, bytes.length - written);
    }
  }

  close(): void {
    if (this.descriptor === undefined) return;
    closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  get closed(): boolean {
    return this.descriptor === undefined;
  }
}

function cutPartialLastLine(descriptor: number): number {
  const size = fstatSync(descriptor).size;
  if (size === 0) return 0;
  const chunkSize = 64 * 1024;
  const chunk = Buffer.alloc(chunkSize);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunkSize);
    const length = end - start;
    readSync(descriptor, chunk, 0, length, start);
    const newline = chunk.subarray(0, length).lastIndexOf(0x0a);
    if (newline !== -1) {
      const keep = start + newline + 1;
      if (keep < size) ftruncateSync(descriptor, keep);
      return size - keep;
    }
    end = start;
  }
  ftruncateSync(descriptor, 0);
  return size;
}
