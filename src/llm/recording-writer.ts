import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordedCall } from './recorded-call.js';

/** Appends one JSON line per completed call, synchronously, so a crash loses no finished call. */
export class RecordingWriter {
  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
  }

  write(call: RecordedCall): void {
    appendFileSync(this.file, `${JSON.stringify(call)}\n`);
  }
}
