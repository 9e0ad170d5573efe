import { exitCodes } from '../errors/exit-codes.js';

/** What a command does when it is interrupted, told to the person who pressed Ctrl-C. */
export interface InterruptHandling {
  /** Aborted on the first SIGINT or SIGTERM: the run cancels what it is doing and stops. */
  signal: AbortSignal;
  /** Removes the handlers; call it once the run has ended. */
  dispose: () => void;
}

const exitCodeOf = { SIGINT: exitCodes.stopped, SIGTERM: exitCodes.terminated } as const;

/**
 * Ctrl-C, or SIGTERM from the web app's or the MCP server's Stop, asks a run of any mode to
 * stop: the model call, script or install in flight is cancelled, the run ends `stopped`
 * with what it finished, and `codify resume` continues it. A second signal exits at once
 * (the interface's decision, never a pipeline's); the run is then left without its end,
 * which resumes too.
 */
export function stopOnInterrupt(
  command: string,
  options: { stderr?: { write: (text: string) => unknown } } = {},
): InterruptHandling {
  const stderr = options.stderr ?? process.stderr;
  const controller = new AbortController();
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
    if (controller.signal.aborted) {
      stderr.write(`codify ${command}: stopped at once; \`codify resume\` continues the run\n`);
      process.exit(exitCodeOf[name]);
    }
    controller.abort(new Error(`interrupted by ${name}`));
    stderr.write(
      `\ncodify ${command}: stopping; the work in flight is cancelled and \`codify resume\` redoes it (${name === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to stop at once)\n`,
    );
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
