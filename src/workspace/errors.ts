/** A workspace refusal or failure; `message` is written for the model to act on. */
export class WorkspaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

/** The message of any error, for observations. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
