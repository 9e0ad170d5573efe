import { readdirSync, readFileSync } from 'node:fs';

/** Kills a process group; ignores one that is already gone. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * Kills every process whose environment holds `marker` (NAME=value). Without namespaces
 * (`--sandbox none`) this is how descendants that left the process group (setsid,
 * double fork) are still found: they inherit the environment.
 */
export function killMarkedProcesses(marker: string): number {
  let killed = 0;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  const needle = Buffer.from(`${marker}\0`);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${entry}/environ`);
      if (environment.includes(needle)) {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      }
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return killed;
}
