/** What a command does when it is interrupted, told to the person who pressed Ctrl-C. */
export interface InterruptHandling {
  /** Aborted on the first SIGINT or SIGTERM: the run cancels what it is doing and stops. */
  signal: AbortSignal;
  /** Removes the handlers; call it once the run has ended. */
  dispose: () => void;
}

const exitCodes: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Ctrl-C, or SIGTERM from the web app's or the MCP server's Stop, asks a run to stop: the
 * model call or script in flight is cancelled, the run ends `stopped` with its checkpoint
 * written, and `codify resume` continues it. A second signal exits at once; the run is then
 * left `killed`, which resumes too.
 */
export function stopOnInterrupt(
  command: string,
  options: {
    /**
     * For a pipeline that cannot stop half-way (paper mode): called on the first signal to
     * record the run's end, after which the command exits at once.
     */
    endNow?: (signal: 'SIGINT' | 'SIGTERM') => void;
    stderr?: { write: (text: string) => unknown };
  } = {},
): InterruptHandling {
  const stderr = options.stderr ?? process.stderr;
  const controller = new AbortController();
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
    if (options.endNow !== undefined) {
      options.endNow(name);
      stderr.write(`\ncodify ${command}: stopped (${name})\n`);
      process.exit(exitCodes[name]);
    }
    if (controller.signal.aborted) {
      stderr.write(`codify ${command}: stopped at once; \`codify resume\` continues the run\n`);
      process.exit(exitCodes[name]);
    }
    controller.abort(new Error(`interrupted by ${name}`));
    stderr.write(
      `\ncodify ${command}: stopping; the step in flight is cancelled and \`codify resume\` redoes it (${name === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to stop at once)\n`,
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
