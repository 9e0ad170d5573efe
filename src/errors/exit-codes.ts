/**
 * The exit codes of every codify command, one table (README "Exit codes"). A command picks
 * its code from the outcome or from the error's `exitCode`, never a number of its own.
 */
export const exitCodes = {
  /** The command did what was asked: the script runs, the repository runs, every run finished. */
  ok: 0,
  /** The run ended without what was asked (script or repository does not run, runs failed). */
  runFailed: 1,
  /** A usage error: unknown option, bad flag value, flags that do not go together. */
  usage: 2,
  /** An input the user named is missing or invalid: task folder, paper, suite, config, run. */
  input: 3,
  /** This machine cannot do it: no sandbox, no suitable interpreter, a missing API key. */
  environment: 4,
  /** A model call failed and the run could not go on (provider error, replay mismatch). */
  model: 5,
  /** The task's starter code fails: non-zero exit, killed, timed out or out of memory. */
  starterFailed: 6,
  /** The task declares a metric and the starter's output has no number matching its pattern. */
  metricNotFound: 7,
  /** Stopped by Ctrl-C (SIGINT) or by the web app's or MCP's Stop. */
  stopped: 130,
  /** Stopped by SIGTERM. */
  terminated: 143,
} as const;

export type ExitCodeName = keyof typeof exitCodes;
export type ExitCode = (typeof exitCodes)[ExitCodeName];
