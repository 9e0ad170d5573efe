/** One attempt at a model call took longer than the configured timeout. */
export class CallTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'CallTimeoutError';
  }
}
