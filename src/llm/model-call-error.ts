import { CodifyError } from '../errors/codify-error.js';
import { exitCodes } from '../errors/exit-codes.js';
import type { RoleName } from './types.js';

/** A model call that failed for good: not retryable, or out of retries. */
export class ModelCallError extends CodifyError {
  constructor(
    readonly role: RoleName,
    readonly spec: string,
    readonly attempts: number,
    readonly reason: string,
    options?: { cause?: unknown; message?: string },
  ) {
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    super(
      options?.message ?? `${role} model ${spec} failed after ${tries}: ${reason}`,
      exitCodes.model,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}
