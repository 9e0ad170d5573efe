import type { EventSink } from './events.js';
import type { FeedbackChannel } from './feedback.js';
import type { Run } from './run.js';

/**
 * What the interface that starts a run (CLI, MCP, the web app's server, an evaluation)
 * gives every mode, passed whole: where runs go, who watches, who answers, who stops.
 * Entry points take `(settings, host, models)`.
 */
export interface RunHost {
  /** Where run folders go (default CODIFY_RUNS_DIR, else ./runs). */
  runsRoot?: string;
  /** The command line recorded in run-start (default this process's). */
  argv?: string[];
  /** Consumers of the event stream from run-start on (terminal, JSON printer). */
  sinks?: EventSink[];
  /**
   * Consumers of the events of the runs this run starts inside it (an exploration's
   * experiments), e.g. an evaluation's progress line counting every call it pays for.
   */
  childSinks?: EventSink[];
  /** Called once the run folder exists, e.g. to print where it is. */
  onRun?: (run: Run) => void;
  /** Ctrl-C, SIGTERM, Stop: aborting it ends the run `stopped` with what it finished. */
  signal?: AbortSignal;
  /** The person in the loop (terminal, run folder for the web app and MCP). */
  feedback?: FeedbackChannel;
}

/** The host a run inside another run uses (explore's experiments, eval's runs): same root, signal and person; its own display. */
export function childHost(host: RunHost, overrides: Partial<RunHost> = {}): RunHost {
  return {
    ...(host.runsRoot === undefined ? {} : { runsRoot: host.runsRoot }),
    ...(host.argv === undefined ? {} : { argv: host.argv }),
    ...(host.signal === undefined ? {} : { signal: host.signal }),
    ...(host.feedback === undefined ? {} : { feedback: host.feedback }),
    ...overrides,
  };
}
