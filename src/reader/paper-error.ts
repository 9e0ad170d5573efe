import { InputError } from '../errors/codify-error.js';
export type PaperErrorCode =
  | 'missing'
  | 'empty'
  | 'unknown-format'
  | 'encrypted'
  | 'no-text'
  | 'unreadable'
  | 'include-missing'
  | 'include-cycle';

/** A paper codify cannot read, with a message that names the file and what to do. */
export class PaperError extends InputError {
  readonly code: PaperErrorCode;
  readonly path: string;

  constructor(code: PaperErrorCode, path: string, message: string) {
    super(message);
    this.name = 'PaperError';
    this.code = code;
    this.path = path;
  }
}
