import { CodifyError } from '../errors/codify-error.js';
import { exitCodes } from '../errors/exit-codes.js';
/** One attempt at a model call took longer than the configured timeout. */
export class CallTimeoutError extends CodifyError {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`, exitCodes.model);
    this.name = 'CallTimeoutError';
  }
}
