import { readFileSync } from 'node:fs';

/**
 * When a process started, as Linux counts it: field 22 of /proc/<pid>/stat (clock ticks since
 * boot). A pid is reused once its process is gone; the pair (pid, start) is not, so a run
 * records it at its start and whoever later calls the run live, or signals it, checks both.
 * Undefined where there is no /proc (not Linux) or no such process.
 */
export function processStartTicks(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and ')': fields after it
  // start after the last ')'. Field 3 is the first one there, so field 22 is the 20th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

/** What a run's run-start records about its process. */
export interface RecordedProcess {
  pid?: number;
  /** processStartTicks(pid) when the run started; absent in runs recorded before it existed. */
  processStart?: string;
  /** ISO time of the run-start event. */
  time?: string;
}

/**
 * Whether the process a run-start names is still that process, on this machine. A pid that no
 * process has is not; one whose start differs from the recorded one is another process that
 * got the same pid. A run recorded before starts were: the process must have started no later
 * than the run-start (a reused pid started after it). Without /proc, whether the pid exists.
 */
export function isRecordedProcessAlive(recorded: RecordedProcess): boolean {
  const { pid } = recorded;
  if (pid === undefined || !pidExists(pid)) return false;
  const start = processStartTicks(pid);
  if (start === undefined) return !procAvailable();
  if (recorded.processStart !== undefined) return recorded.processStart === start;
  const runStartedMs = recorded.time === undefined ? Number.NaN : Date.parse(recorded.time);
  const processStartedMs = startedAtMs(start);
  if (Number.isNaN(runStartedMs) || processStartedMs === undefined) return true;
  // A second of slack for clock-tick rounding and the boot time's whole seconds.
  return processStartedMs <= runStartedMs + 1000;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function procAvailable(): boolean {
  return processStartTicks(process.pid) !== undefined;
}

/**
 * Wall-clock start of a process from its start ticks: the boot time (btime in /proc/stat)
 * plus ticks at USER_HZ, which Linux fixes at 100 for everything it shows user space.
 */
function startedAtMs(ticks: string): number | undefined {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (btime === undefined) return undefined;
    return Number(btime) * 1000 + Number(ticks) * 10;
  } catch {
    return undefined;
  }
}
