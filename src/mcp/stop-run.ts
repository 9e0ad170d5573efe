import { hostname } from 'node:os';
import type { EventOf } from '../runs/events.js';
import { isRecordedProcessAlive } from '../runs/process-identity.js';
import { readEvents } from '../runs/read-events.js';

export interface StoppedRun {
  runDir: string;
  pid: number;
  /** Whether the process was gone within the wait. */
  exited: boolean;
}

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The process recording the run now, or why there is none to stop. A pid now held by another
 * process (its start differs from the one the run recorded) counts as none.
 */
export function runningProcess(runDir: string): number {
  const { events } = readEvents(runDir);
  let start: EventOf<'run-start'> | undefined;
  let ended: EventOf<'run-end'> | undefined;
  for (const event of events) {
    if (event.type === 'run-start') {
      start = event;
      ended = undefined;
    } else if (event.type === 'run-end') ended = event;
  }
  if (ended?.status === 'stopped') {
    throw new Error(
      'the run is not running (stopped); continue it with resume_run or codify resume',
    );
  }
  if (ended !== undefined) throw new Error(`the run has already ended (${ended.status})`);
  if (start?.pid === undefined) throw new Error('the run does not say which process records it');
  if (start.host !== hostname()) {
    throw new Error(
      `the run is recorded by process ${start.pid} on ${start.host ?? 'another host'}; stop it there`,
    );
  }
  if (!isRecordedProcessAlive(start)) {
    throw new Error(
      'the run is not running (killed); continue it with resume_run or codify resume',
    );
  }
  return start.pid;
}

/**
 * Stops a running run with SIGTERM to its process (and the process group of a run started
 * through MCP, the sandboxed scripts with it). An implement run ends `stopped` after
 * cancelling its step in flight, a paper run after cancelling its stage's work in flight, an
 * explore run at once. `codify resume` continues an implement run after its last completed
 * step, a paper run after its last finished stage.
 */
export async function stopRun(runDir: string, waitMs = 10_000): Promise<StoppedRun> {
  const pid = runningProcess(runDir);
  try {
    // A run started through MCP leads its own process group.
    process.kill(-pid, 'SIGTERM');
  } catch {
    process.kill(pid, 'SIGTERM');
  }
  for (let waited = 0; waited < waitMs; waited += 50) {
    if (!alive(pid)) return { runDir, pid, exited: true };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { runDir, pid, exited: !alive(pid) };
}
