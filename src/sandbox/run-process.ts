import { spawn } from 'node:child_process';
import { OutputCollector } from './output-collector.js';
import { killGroup } from './process-tree.js';

export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  outputPath: string;
  outputCapBytes: number;
  outputFileCapBytes: number;
  signal?: AbortSignal;
  /** Called after the process group is killed, to reach descendants that escaped it. */
  killStragglers?: () => void;
}

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  output: string;
  outputBytes: number;
  truncated: boolean;
  fileCapped: boolean;
  /** The process could not be started at all. */
  spawnError?: string;
}

/** How long to wait for pipes to close after the main process exits (daemons may hold them). */
const drainGraceMs = 500;

/** What happened to the process, filled in as its events arrive. */
interface ProcessState {
  timedOut: boolean;
  aborted: boolean;
  exitCode: number | null;
  exitSignal: string | null;
  spawnError?: string;
}

function outcomeOf(
  state: ProcessState,
  collector: OutputCollector,
  started: number,
): ProcessOutcome {
  const { spawnError } = state;
  return {
    exitCode: state.exitCode,
    signal: state.exitSignal,
    timedOut: state.timedOut,
    aborted: state.aborted,
    durationMs: Date.now() - started,
    output: spawnError ? `${collector.text()}${spawnError}` : collector.text(),
    outputBytes: collector.totalBytes,
    truncated: collector.truncated,
    fileCapped: collector.fileCapped,
    spawnError,
  };
}

/**
 * Runs one command in its own process group, collecting stdout and stderr together, and
 * kills the whole group at the timeout, on abort, or when the output file cap is reached.
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessOutcome> {
  const started = Date.now();
  const collector = new OutputCollector(
    spec.outputPath,
    spec.outputCapBytes,
    spec.outputFileCapBytes,
  );
  return new Promise((resolve) => {
    const state: ProcessState = {
      timedOut: false,
      aborted: false,
      exitCode: null,
      exitSignal: null,
    };
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    const killAll = (): void => {
      killGroup(child.pid);
      spec.killStragglers?.();
    };
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (drainTimer) clearTimeout(drainTimer);
      spec.signal?.removeEventListener('abort', onAbort);
      // descendants that outlived the main process must not keep running
      killAll();
      collector.close();
      resolve(outcomeOf(state, collector, started));
    };
    const onAbort = (): void => {
      state.aborted = true;
      killAll();
    };
    const timer = setTimeout(() => {
      state.timedOut = true;
      killAll();
    }, spec.timeoutMs);

    if (spec.signal?.aborted) onAbort();
    else spec.signal?.addEventListener('abort', onAbort, { once: true });

    const onData = (chunk: Buffer): void => {
      if (!collector.add(chunk)) killAll();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      state.spawnError = `could not start ${spec.command}: ${error.message}`;
      finish();
    });
    child.on('exit', (code, signal) => {
      state.exitCode = code;
      state.exitSignal = signal;
      // give the pipes a moment to drain, but do not wait for daemons holding them open
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, drainGraceMs);
    });
    child.on('close', () => finish());
  });
}
