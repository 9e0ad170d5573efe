import { InputError } from '../errors/codify-error.js';
/** A task folder the user must fix before codify can use it; the message names the file and the fix. */
export class TaskError extends InputError {
  /** The file (or folder) at fault, absolute. */
  readonly path: string;

  constructor(message: string, path: string) {
    super(message);
    this.name = 'TaskError';
    this.path = path;
  }
}
