import { errorMessage, exitCodeOf } from '../errors/codify-error.js';
import { RunStopped } from '../errors/run-stopped.js';

/**
 * How every command ends on an error: one line naming the command and what to do, and the
 * exit code the error carries (README "Exit codes"). A stop says how to continue.
 */
export function reportError(
  command: string,
  error: unknown,
  stderr: { write: (text: string) => unknown } = process.stderr,
): void {
  const message =
    error instanceof RunStopped
      ? `stopped (${error.message}); \`codify resume\` continues the run`
      : errorMessage(error);
  stderr.write(`codify ${command}: ${message}\n`);
  process.exitCode = exitCodeOf(error);
}
