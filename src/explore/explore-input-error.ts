import { InputError } from '../errors/codify-error.js';
/** A mistake in what the researcher gave (a file, a flag): the message says what to fix. */
export class ExploreInputError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ExploreInputError';
  }
}
