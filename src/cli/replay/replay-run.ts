import { InputError } from '../../errors/codify-error.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { recordedCallsFromEvents } from '../../llm/calls-from-events.js';
import { eventLogPath } from '../../runs/event-log-file.js';
import type { CodifyEvent, EventOf, RunStatus } from '../../runs/events.js';
import { findRun } from '../../runs/find-run.js';
import { readEvents } from '../../runs/read-events.js';
import { listRunIds } from '../../runs/run-folders.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { codifyChildCommand, runStartedBy } from '../codify-child.js';
import { type Divergence, findDivergence } from './divergence.js';
import { replayArgv } from './replay-argv.js';

/** What `codify replay RUN` found. */
export interface ReplayReport {
  originalRun: string;
  replayRun: string;
  /** The command the replay ran (the original one with the run's log as its model). */
  argv: string[];
  recordedCalls: number;
  replayedCalls: number;
  originalStatus: RunStatus | 'unfinished';
  replayStatus: RunStatus | 'unfinished';
  replayReason: string | null;
  /** The replayed command's exit code. */
  exitCode: number | null;
  divergence: Divergence;
}

export interface ReplayRunOptions {
  root?: string;
  json?: boolean;
  /** Where the replayed command's output goes; default this process's (the terminal). */
  stdio?: 'inherit' | 'ignore';
}

const replayableModes = new Set(['implement', 'paper']);

function runStart(events: readonly CodifyEvent[], runDir: string): EventOf<'run-start'> {
  const start = events.find((event): event is EventOf<'run-start'> => event.type === 'run-start');
  if (start === undefined) throw new InputError(`${runDir}/events.jsonl has no run-start event`);
  return start;
}

function finalStatus(events: readonly CodifyEvent[]): {
  status: RunStatus | 'unfinished';
  reason: string | null;
} {
  const end = events.findLast((event) => event.type === 'run-end');
  return end?.type === 'run-end'
    ? { status: end.status, reason: end.reason ?? null }
    : { status: 'unfinished', reason: null };
}

/** The original run's working directory when it still exists, else this one. */
function workingDirectory(start: EventOf<'run-start'>): string {
  const cwd = start.cwd;
  if (cwd !== undefined && existsSync(cwd) && statSync(cwd).isDirectory()) return cwd;
  return process.cwd();
}

/** The value of `--flag value` or `--flag=value` in an argv. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === flag) return argv[index + 1];
    if (argument.startsWith(`${flag}=`)) return argument.slice(flag.length + 1);
  }
  return undefined;
}

/**
 * True when the replayed command would record its calls because its config file says
 * `record`: that file already holds a recording, so the command would refuse to start.
 */
function configRecords(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): boolean {
  const config = flagValue(argv, '--config');
  try {
    return (
      loadConfig({ cwd, env, flags: config === undefined ? {} : { config } }).record !== undefined
    );
  } catch {
    // A config that does not load is reported by the replayed command itself.
    return false;
  }
}

function runChild(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdio: 'inherit' | 'ignore',
): Promise<{ pid: number | undefined; exitCode: number | null }> {
  const { command, args: childArgs } = codifyChildCommand(args);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, childArgs, { cwd, env, stdio });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ pid: child.pid, exitCode: code }));
  });
}

/**
 * `codify replay RUN`: runs the run's original command again as a new run, with the answers
 * of its own event log (strictly in order, like `replay:FILE`) and real execution, then
 * says where the new run departed from the old one. Throws for the user's mistakes (no such
 * run, a run of another mode, a run without model calls, a command that cannot start).
 */
export async function replayRun(
  reference: string,
  options: ReplayRunOptions = {},
): Promise<ReplayReport> {
  const runDir = findRun(reference, resolveRunsRoot(options.root));
  const { events } = readEvents(runDir);
  const start = runStart(events, runDir);
  const command = start.argv[0] ?? '';
  if (!replayableModes.has(start.mode) || !replayableModes.has(command)) {
    throw new InputError(
      `${runDir} is a ${start.mode} run started as "codify ${start.argv.join(' ')}"; codify replay re-runs implement and paper runs only`,
    );
  }
  const recorded = recordedCallsFromEvents(events);
  if (recorded.length === 0) {
    throw new InputError(`${runDir} made no model calls, so there is nothing to replay`);
  }
  const root = dirname(runDir);
  const argv = replayArgv(start.argv, {
    eventLog: eventLogPath(runDir),
    plannerLevels: start.models.planner?.length ?? 1,
    root,
    json: options.json ?? false,
  });
  const cwd = workingDirectory(start);
  const env = { ...process.env };
  // A replay records nothing new: a recording named by the environment would be refused anyway.
  delete env.CODIFY_RECORD;
  const scratch = configRecords(argv, cwd, env)
    ? mkdtempSync(join(tmpdir(), 'codify-replay-'))
    : undefined;
  if (scratch !== undefined) argv.push('--record', join(scratch, 'calls.jsonl'));
  const before = new Set(listRunIds(root));
  const child = await runChild(argv, cwd, env, options.stdio ?? 'inherit').finally(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });
  const replayDir = runStartedBy(root, before, child.pid);
  if (replayDir === undefined) {
    throw new InputError(
      `the replayed command "codify ${argv.join(' ')}" stopped before it started a run (exit code ${String(child.exitCode)}); its message says why`,
    );
  }
  const replayed = readEvents(replayDir).events;
  const original = finalStatus(events);
  const now = finalStatus(replayed);
  return {
    originalRun: runDir,
    replayRun: replayDir,
    argv,
    recordedCalls: recorded.length,
    replayedCalls: recordedCallsFromEvents(replayed).length,
    originalStatus: original.status,
    replayStatus: now.status,
    replayReason: now.reason,
    exitCode: child.exitCode,
    divergence: findDivergence(events, replayed),
  };
}
