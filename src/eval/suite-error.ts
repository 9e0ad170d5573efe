import { InputError } from '../errors/codify-error.js';
/** A suite file the user must fix; the message names the file and the key path. */
export class SuiteError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}
