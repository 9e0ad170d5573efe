import { CodifyError } from '../errors/codify-error.js';
import { exitCodes } from '../errors/exit-codes.js';
/** A workspace refusal or failure; `message` is written for the model to act on. */
export class WorkspaceError extends CodifyError {
  // Inside the agent loop it becomes an observation; one that escapes a run fails it.
  constructor(message: string) {
    super(message, exitCodes.runFailed);
    this.name = 'WorkspaceError';
  }
}

/** The message of any error, for observations. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
