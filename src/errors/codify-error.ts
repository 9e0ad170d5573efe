import { exitCodes, type ExitCode } from './exit-codes.js';

/**
 * The one base of codify's own errors: each carries the exit code a command ends with when
 * it reaches the top (gemini-cli's FatalError), so every command maps errors the same way.
 */
export class CodifyError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A flag or argument the command cannot take; the message names it and the fix. */
export class UsageError extends CodifyError {
  constructor(message: string) {
    super(message, exitCodes.usage);
  }
}

/** An input the user named (a file, a folder, a run) is missing or cannot be used. */
export class InputError extends CodifyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, exitCodes.input, options);
  }
}

/** This machine lacks something the command needs (sandbox, interpreter, API key). */
export class EnvironmentError extends CodifyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, exitCodes.environment, options);
  }
}

/** The exit code for an error that reached a command: its own, else `runFailed`. */
export function exitCodeOf(error: unknown): number {
  return error instanceof CodifyError ? error.exitCode : exitCodes.runFailed;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
