import type { Difference } from './first-difference.js';
import type { RoleName } from './types.js';

/** A live request that is not the one the recording holds at this point. */
export class ReplayMismatchError extends Error {
  constructor(
    readonly call: number,
    readonly role: RoleName,
    readonly difference: Difference,
  ) {
    super(
      `replay: call ${call} (${role}) differs from the recording at ${difference.where}: recorded ${difference.recorded}, live ${difference.live}`,
    );
    this.name = 'ReplayMismatchError';
  }
}

/** More calls than the recording holds, or a recording that cannot be read. */
export class ReplayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayError';
  }
}
