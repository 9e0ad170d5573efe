import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CodifyEvent } from '../runs/events.js';
import { summarizeRun } from '../runs/list-runs.js';
import { isRecordedProcessAlive } from '../runs/process-identity.js';
import { readFirstEvent } from '../runs/read-first-event.js';
import { listRunIds } from '../runs/run-folders.js';
import { readEvents } from '../runs/read-events.js';
import { HttpError } from './http-error.js';

/** How long a started command may take to create its run folder before the request fails. */
const startTimeoutMs = 30_000;

/**
 * The codify CLI as a command line: the compiled one beside this file (dist/), or the source
 * through tsx when the server itself runs from source (tests, development).
 */
export function cliCommand(): string[] {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    return ['--import', 'tsx', fileURLToPath(new URL('../cli/main.ts', import.meta.url))];
  }
  return [fileURLToPath(new URL('../cli/main.js', import.meta.url))];
}

export interface LaunchOptions {
  root: string;
  workingDirectory: string;
}

/**
 * Starts `codify <args> --root ROOT` as its own process, detached from the server (it keeps
 * running if the server stops), and resolves with the id of the run folder it creates. A
 * command that exits first (a bad task folder, an unknown model) is reported with its output.
 */
export async function launchCodify(args: string[], options: LaunchOptions): Promise<string> {
  const before = new Set(listRunIds(options.root));
  return launch(args, options, (pid) =>
    listRunIds(options.root).find(
      (id) => !before.has(id) && startPid(readFirstEvent(join(options.root, id))) === pid,
    ),
  );
}

function startPid(event: CodifyEvent | undefined): number | undefined {
  return event?.type === 'run-start' ? event.pid : undefined;
}

/**
 * Starts `codify resume ID` with the models the run last used (resume does not store them)
 * and resolves once its run-start is in the run's log.
 */
export async function resumeCodify(runId: string, options: LaunchOptions): Promise<string> {
  const directory = join(options.root, runId);
  return launch(['resume', runId, ...modelFlagsOf(directory)], options, (pid) =>
    readEvents(directory).events.some((event) => event.type === 'run-start' && event.pid === pid)
      ? runId
      : undefined,
  );
}

async function launch(
  args: string[],
  options: LaunchOptions,
  startedRun: (pid: number) => string | undefined,
): Promise<string> {
  const outputDirectory = mkdtempSync(join(tmpdir(), 'codify-ui-launch-'));
  const outputPath = join(outputDirectory, 'output.txt');
  const output = openSync(outputPath, 'a');
  const child = spawn(process.execPath, [...cliCommand(), ...args, '--root', options.root], {
    cwd: options.workingDirectory,
    detached: true,
    stdio: ['ignore', output, output],
    env: { ...process.env, CI: 'true' },
  });
  closeSync(output);
  let exitCode: number | null | undefined;
  child.on('exit', (code) => (exitCode = code ?? 1));
  child.unref();
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    const started = child.pid === undefined ? undefined : startedRun(child.pid);
    if (started !== undefined) return started;
    if (exitCode !== undefined) {
      const text = readFileSync(outputPath, 'utf8').trim().slice(-2000);
      throw new HttpError(
        exitCode === 2 ? 400 : 500,
        `codify ${args[0] ?? ''} exited with ${exitCode} before starting a run: ${text}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new HttpError(
    504,
    `codify ${args[0] ?? ''} did not start a run within 30 s (its output: ${outputPath})`,
  );
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
