import { UsageError } from '../errors/codify-error.js';
import { appendFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordedCall } from './recorded-call.js';

/** `--record FILE` names a file that already holds a session; it is never appended to or overwritten. */
export class RecordingExistsError extends UsageError {
  constructor(readonly file: string) {
    super(
      `--record ${file}: the file already holds a recording; choose a new file name (or delete it) so two sessions are not mixed`,
    );
    this.name = 'RecordingExistsError';
  }
}

/** Appends one JSON line per completed call, synchronously, so a crash loses no finished call. */
export class RecordingWriter {
  private started = false;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    if (existingSize(file) > 0) throw new RecordingExistsError(file);
  }

  write(call: RecordedCall): void {
    // Checked again at the first write: another process may have recorded there meanwhile.
    if (!this.started && existingSize(this.file) > 0) throw new RecordingExistsError(this.file);
    this.started = true;
    appendFileSync(this.file, `${JSON.stringify(call)}\n`);
  }
}

function existingSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
