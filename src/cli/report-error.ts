import { errorMessage, exitCodeOf } from '../errors/codify-error.js';
import { RunStopped } from '../errors/run-stopped.js';

/**
 * How every command ends on an error: one line naming the command and what to do, and the
 * exit code the error carries (README "Exit codes"). A stop says how to continue.
 */
export function reportError(
  command: string,
  error: unknown,
  options: { runDir?: string; stderr?: { write: (text: string) => unknown } } = {},
): void {
  const stderr = options.stderr ?? process.stderr;
  const message =
    error instanceof RunStopped
      ? `${error.message}; \`codify resume ${options.runDir ?? 'RUN'}\` continues it`
      : errorMessage(error);
  stderr.write(`codify ${command}: ${message}\n`);
  process.exitCode = exitCodeOf(error);
}
