import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { codifyChildCommand, runStartedBy } from '../cli/codify-child.js';
import { readEvents } from '../runs/read-events.js';
import { listRunIds } from '../runs/run-folders.js';

export interface StartedRun {
  runId: string;
  runDir: string;
  /** The process doing the run. */
  pid: number;
  /** Its terminal output, in the run folder. */
  output: string;
}

/** Where a child's output goes until its run folder exists. */
const pendingFolder = '.mcp-starting';
/** A run's terminal output as written by the process `pid` (a start, then each resume). */
export const outputFileName = (pid: number): string => `mcp-output-${pid}.log`;
export const outputFilePattern = /^mcp-output-\d+\.log$/;
const pollMs = 100;
/** Under the MCP client's usual 60 s request timeout, so the caller hears why. */
const startTimeoutMs = 50_000;

/** The last lines of a child's output, which is then removed: no run will hold it. */
function takeTail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  } finally {
    rmSync(file, { force: true });
  }
}

/** The run folder once the process `pid` has written its run-start there. */
function resumedBy(runDir: string, pid: number | undefined): string | undefined {
  const { events } = readEvents(runDir);
  const started = events.some((event) => event.type === 'run-start' && event.pid === pid);
  return started ? runDir : undefined;
}

/**
 * Starts `codify ARGV` as a detached child process and answers as soon as its run folder
 * exists, with the run's id; the run goes on in the background, after this server too.
 *
 * A child process rather than this process, because: this server's stdout is the MCP
 * channel, and nothing a pipeline or its subprocesses print may reach it; a run that
 * crashes or is killed takes no other run and not the server with it; the server stays
 * responsive while runs work; and a run is then exactly what `codify implement` makes,
 * one process per run, so `codify runs` tells it running or killed by its pid and
 * `codify resume` continues it.
 *
 * Throws with the child's own message when it stops before starting a run (a bad task
 * folder, a missing API key, no sandbox), or when no run appears within `timeoutMs`.
 */
export async function startRunProcess(
  argv: string[],
  options: {
    runsRoot: string;
    cwd: string;
    timeoutMs?: number;
    /** The run a `codify resume` child continues, instead of a new one. */
    resumes?: string;
  },
): Promise<StartedRun> {
  const pending = join(options.runsRoot, pendingFolder);
  mkdirSync(pending, { recursive: true });
  const log = join(pending, `${Date.now()}-${Math.random().toString(16).slice(2, 8)}.log`);
  const descriptor = openSync(log, 'a');
  const before = new Set(listRunIds(options.runsRoot));
  const { command, args } = codifyChildCommand([...argv, '--root', options.runsRoot]);
  let exitCode: number | null | undefined;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: process.env,
    stdio: ['ignore', descriptor, descriptor],
    detached: true,
  });
  closeSync(descriptor);
  child.on('exit', (code, signal) => {
    exitCode = code ?? (signal === null ? null : -1);
  });
  const failedToStart = new Promise<Error>((resolve) => child.on('error', resolve));
  child.unref();
  const deadline = Date.now() + (options.timeoutMs ?? startTimeoutMs);
  for (;;) {
    // Read before looking for the run, so a child that ran to its end within one poll is
    // still found by its run rather than taken for one that never started.
    const exited = exitCode !== undefined;
    const runDir =
      options.resumes === undefined
        ? runStartedBy(options.runsRoot, before, child.pid)
        : resumedBy(options.resumes, child.pid);
    if (runDir !== undefined && child.pid !== undefined) {
      const output = join(runDir, outputFileName(child.pid));
      // The child keeps writing to the same open file under its new name.
      renameSync(log, output);
      return { runId: basename(runDir), runDir, pid: child.pid, output };
    }
    if (exited) {
      throw new Error(
        `codify ${argv[0] ?? ''} stopped before starting a run (exit code ${String(exitCode)}):\n${takeTail(log, 20)}`,
      );
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(
        `codify ${argv[0] ?? ''} started no run within ${Math.round((options.timeoutMs ?? startTimeoutMs) / 1000)} s:\n${takeTail(log, 20)}`,
      );
    }
    const error = await Promise.race([
      failedToStart,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), pollMs)),
    ]);
    if (error !== undefined) {
      rmSync(log, { force: true });
      throw new Error(`could not start codify: ${error.message}`);
    }
  }
}
