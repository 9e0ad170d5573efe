import { CodifyError } from './codify-error.js';
import { exitCodes } from './exit-codes.js';

/**
 * A run was asked to stop (Ctrl-C, SIGTERM, the web app's or MCP's Stop, a person's `stop`
 * at a gate). Thrown out of the work in flight; the lifecycle ends the run `stopped` with
 * what it finished, and `codify resume` continues it.
 */
export class RunStopped extends CodifyError {
  constructor(message = 'stopped', options?: { cause?: unknown; byTerm?: boolean }) {
    super(message, options?.byTerm === true ? exitCodes.terminated : exitCodes.stopped, options);
  }

  /** The stop that an aborted signal stands for (its reason's message when it has one). */
  static from(signal: AbortSignal): RunStopped {
    const reason: unknown = signal.reason;
    if (reason instanceof RunStopped) return reason;
    const message = reason instanceof Error ? reason.message : 'stopped';
    return new RunStopped(message, { cause: reason, byTerm: /SIGTERM/.test(message) });
  }
}

/** Throws RunStopped when the signal has been aborted; the check between units of work. */
export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw RunStopped.from(signal);
}
