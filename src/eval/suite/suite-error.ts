/** A suite file the user must fix; the message names the file and the key path. */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}
