import { InputError } from '../../errors/codify-error.js';

/** A suite file the user must fix; the message names the file and the key path (exit code 3). */
export class SuiteError extends InputError {}
