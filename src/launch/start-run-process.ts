import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { codifyChildCommand, runStartedBy } from '../cli/codify-child.js';
import { exitCodes } from '../errors/index.js';
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

/** Which front end started a run; its terminal output is named after it. */
export type Launcher = 'mcp' | 'ui';

/** Where a child's output goes until its run folder exists. */
const pendingFolder = '.starting';
/** A run's terminal output as written by the process `pid` (a start, then each resume). */
export const outputFileName = (launcher: Launcher, pid: number): string =>
  `${launcher}-output-${pid}.log`;
export const outputFilePattern = /^(mcp|ui)-output-\d+\.log$/;

/** A child that did not start its run: why, its exit code when it exited, its last output. */
export class RunLaunchError extends Error {
  constructor(
    message: string,
    readonly reason: 'exited' | 'timeout' | 'spawn',
    readonly exitCode: number | null | undefined,
  ) {
    super(message);
    this.name = 'RunLaunchError';
  }

  /** The child refused what it was asked (a bad flag, a missing input), not a failure here. */
  get refused(): boolean {
    return this.exitCode === exitCodes.usage || this.exitCode === exitCodes.input;
  }
}
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
 * THE launcher every front end starts a run with (MCP tools, the web app's server): starts
 * `codify ARGV --root ROOT` as a detached child process and answers as soon as its run
 * folder exists, with the run's id; the run goes on in the background, after the server too.
 *
 * A child process rather than the server's own, because: the MCP server's stdout is its
 * protocol channel, and nothing a pipeline or its subprocesses print may reach it; a run
 * that crashes or is killed takes no other run and not the server with it; the server stays
 * responsive while runs work; and a run is then exactly what `codify implement` makes, one
 * process per run, so `codify runs` tells it running or killed by its pid and `codify
 * resume` continues it. Its terminal output is kept in the run folder.
 *
 * Throws with the child's own message when it stops before starting a run (a bad task
 * folder, a missing API key, no sandbox), or when no run appears within `timeoutMs`.
 */
export async function startRunProcess(
  argv: string[],
  options: {
    runsRoot: string;
    cwd: string;
    launcher: Launcher;
    timeoutMs?: number;
    /** Added to the server's environment (the web app's runs get CI=true: no TTY output). */
    env?: Record<string, string>;
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
    env: { ...process.env, ...options.env },
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
      const output = join(runDir, outputFileName(options.launcher, child.pid));
      // The child keeps writing to the same open file under its new name.
      renameSync(log, output);
      return { runId: basename(runDir), runDir, pid: child.pid, output };
    }
    if (exited) {
      throw new RunLaunchError(
        `codify ${argv[0] ?? ''} stopped before starting a run (exit code ${String(exitCode)}):\n${takeTail(log, 20)}`,
        'exited',
        exitCode,
      );
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new RunLaunchError(
        `codify ${argv[0] ?? ''} started no run within ${Math.round((options.timeoutMs ?? startTimeoutMs) / 1000)} s:\n${takeTail(log, 20)}`,
        'timeout',
        undefined,
      );
    }
    const error = await Promise.race([
      failedToStart,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), pollMs)),
    ]);
    if (error !== undefined) {
      rmSync(log, { force: true });
      throw new RunLaunchError(`could not start codify: ${error.message}`, 'spawn', undefined);
    }
  }
}
