import { CodifyError } from '../errors/codify-error.js';
import { exitCodes, type ExitCode } from '../errors/exit-codes.js';
import type { Difference } from './first-difference.js';
import type { RoleName } from './types.js';

/** A live request that is not the one the recording holds at this point. */
export class ReplayMismatchError extends CodifyError {
  constructor(
    readonly call: number,
    readonly role: RoleName,
    readonly difference: Difference,
  ) {
    super(
      `replay: call ${call} (${role}) differs from the recording at ${difference.where}: recorded ${difference.recorded}, live ${difference.live}`,
      exitCodes.model,
    );
    this.name = 'ReplayMismatchError';
  }
}

/** More calls than the recording holds, or a recording that cannot be read. */
export class ReplayError extends CodifyError {
  /** A recording that cannot be read is the user's input; running out of calls is the model's. */
  constructor(message: string, exitCode: ExitCode = exitCodes.model) {
    super(message, exitCode);
    this.name = 'ReplayError';
  }
}
