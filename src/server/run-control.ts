import { hostname } from 'node:os';
import { join } from 'node:path';
import { RunLaunchError, startRunProcess } from '../launch/start-run-process.js';
import { summarizeRun } from '../runs/list-runs.js';
import { isRecordedProcessAlive } from '../runs/process-identity.js';
import { readEvents } from '../runs/read-events.js';
import { HttpError } from './http-error.js';

/** How long a started command may take to create its run folder before the request fails. */
const startTimeoutMs = 30_000;

export interface LaunchOptions {
  root: string;
  workingDirectory: string;
}

/** A child that did not start its run, as an answer: refused input 400, a timeout 504. */
function asHttpError(error: unknown): unknown {
  if (!(error instanceof RunLaunchError)) return error;
  return new HttpError(error.refused ? 400 : error.reason === 'timeout' ? 504 : 500, error.message);
}

/**
 * Starts `codify <args> --root ROOT` through the one launcher every front end uses (detached:
 * it keeps running if the server stops) and resolves with the id of the run folder it creates.
 * A command that exits first (a bad task folder, an unknown model) is reported with its output.
 */
export async function launchCodify(args: string[], options: LaunchOptions): Promise<string> {
  try {
    const started = await startRunProcess(args, launchOptions(options));
    return started.runId;
  } catch (error) {
    throw asHttpError(error);
  }
}

/**
 * Starts `codify resume ID` with the models the run last used (resume does not store them)
 * and resolves once its run-start is in the run's log.
 */
export async function resumeCodify(runId: string, options: LaunchOptions): Promise<string> {
  const directory = join(options.root, runId);
  try {
    await startRunProcess(['resume', runId, ...modelFlagsOf(directory)], {
      ...launchOptions(options),
      resumes: directory,
    });
    return runId;
  } catch (error) {
    throw asHttpError(error);
  }
}

function launchOptions(options: LaunchOptions) {
  return {
    runsRoot: options.root,
    cwd: options.workingDirectory,
    launcher: 'ui' as const,
    timeoutMs: startTimeoutMs,
    // The page shows the run's events; the child's terminal output needs no colours or spinners.
    env: { CI: 'true' },
  };
}

/**
 * Stops a live run the way Ctrl-C in its terminal would leave it: the process that writes it
 * (and its sandboxed children, which die with it) is terminated; `codify resume` continues it.
 */
export function stopRun(runDirectory: string): { pid: number } {
  const summary = summarizeRun(runDirectory);
  if (summary.status !== 'running') {
    throw new HttpError(409, `the run is ${summary.status}, not running; there is nothing to stop`);
  }
  const { events } = readEvents(runDirectory);
  const start = events.findLast((event) => event.type === 'run-start');
  if (start?.type !== 'run-start' || start.pid === undefined || start.host !== hostname()) {
    throw new HttpError(409, 'the run is written by a process on another machine; stop it there');
  }
  if (start.pid === process.pid) {
    throw new HttpError(409, 'the run is written by this server process itself; it cannot stop it');
  }
  // Checked again just before the signal: a pid freed by the run and taken by another
  // process must never receive it.
  if (!isRecordedProcessAlive(start)) {
    throw new HttpError(
      409,
      `process ${start.pid} is no longer the run's codify (it ended; the pid may now be another process's); nothing was signalled`,
    );
  }
  try {
    process.kill(start.pid, 'SIGTERM');
  } catch (error) {
    throw new HttpError(409, `could not stop process ${start.pid}: ${String(error)}`);
  }
  return { pid: start.pid };
}

/** Which runs `codify resume` can continue: implement, paper and explore runs that ended without finishing. */
export function assertResumable(runDirectory: string): void {
  const summary = summarizeRun(runDirectory);
  if (summary.mode !== 'implement' && summary.mode !== 'paper' && summary.mode !== 'explore') {
    throw new HttpError(
      409,
      `implement, paper and explore runs resume (an evaluation continues with the same codify eval); this is a ${summary.mode} run`,
    );
  }
  if (summary.status === 'running' || summary.status === 'completed') {
    throw new HttpError(
      409,
      `the run is ${summary.status}; only a killed, stopped or failed run resumes`,
    );
  }
}

/** --planner a,b --worker c …: the models of the run's latest start, role by role. */
function modelFlagsOf(runDirectory: string): string[] {
  const { events } = readEvents(runDirectory);
  const start = events.findLast((event) => event.type === 'run-start');
  if (start?.type !== 'run-start') return [];
  return Object.entries(start.models).flatMap(([role, specs]) =>
    specs === undefined || specs.length === 0 ? [] : [`--${role}`, specs.join(',')],
  );
}
