import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Largest output file kept on disk for one execution; past it the script is stopped. */
export const defaultOutputFileCapBytes = 50 * 1024 * 1024;

/**
 * Collects the combined output of one execution: all of it into a file (up to a cap), and
 * the head and tail in memory for the model.
 */
export class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  private fileBytes = 0;
  private descriptor: number | undefined;
  /** Every byte the script printed, kept or not. */
  totalBytes = 0;
  /** The output file reached its cap; later bytes were dropped. */
  fileCapped = false;

  constructor(
    private readonly outputPath: string,
    private readonly capBytes: number,
    private readonly fileCapBytes: number,
  ) {
    mkdirSync(dirname(outputPath), { recursive: true });
    this.descriptor = openSync(outputPath, 'w');
  }

  /** Adds a chunk; returns false once the file cap is reached. */
  add(chunk: Buffer): boolean {
    this.totalBytes += chunk.length;
    this.keepInMemory(chunk);
    if (this.descriptor !== undefined && !this.fileCapped) {
      const room = this.fileCapBytes - this.fileBytes;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      writeSync(this.descriptor, part);
      this.fileBytes += part.length;
      if (chunk.length > room) this.fileCapped = true;
    }
    return !this.fileCapped;
  }

  private keepInMemory(chunk: Buffer): void {
    const headCap = Math.floor(this.capBytes / 2);
    let rest = chunk;
    if (this.headBytes < headCap) {
      const part = rest.subarray(0, headCap - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
      rest = rest.subarray(part.length);
    }
    if (rest.length === 0) return;
    const tailCap = this.capBytes - headCap;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > tailCap && this.tail.length > 0) {
      const first = this.tail[0];
      if (!first) break;
      const excess = this.tailBytes - tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  close(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  /** Whether the model sees less than everything. */
  get truncated(): boolean {
    return this.totalBytes > this.headBytes + this.tailBytes;
  }

  /** Head and tail, with a marker saying how much was cut and where the full text is. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    const cut = this.totalBytes - this.headBytes - this.tailBytes;
    const where = this.fileCapped
      ? `the first ${this.fileBytes} bytes are saved in ${this.outputPath}`
      : `the full output is saved in ${this.outputPath}`;
    return `${head}\n\n[... ${cut} bytes of output cut here (${this.totalBytes} bytes in all); ${where} ...]\n\n${tail}`;
  }
}
