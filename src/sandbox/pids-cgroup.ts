import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The cgroup-v1 pids hierarchy, where this machine has one mounted. */
const pidsHierarchy = '/sys/fs/cgroup/pids';

/**
 * A pids cgroup for one run: the kernel refuses fork() past `pids.max` for everything in
 * it, and every process in it (however it daemonized) can be found and killed. Used when
 * codify may create cgroups (root, or a writable pids hierarchy); otherwise only
 * RLIMIT_NPROC applies.
 */
export interface PidsCgroup {
  path: string;
  /** Wraps a command so it joins the cgroup before it starts. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** Whether fork() was ever refused at the limit. */
  limitReached(): boolean;
  killAll(): void;
  /** Kills what is left and removes the cgroup. */
  remove(): Promise<void>;
}

function readPids(path: string): number[] {
  try {
    return readFileSync(join(path, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** codify's own place in the pids hierarchy (from /proc/self/cgroup); runs nest under it. */
function ownPidsFolder(): string | undefined {
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers = '', path = ''] = line.split(':');
      if (controllers.split(',').includes('pids')) return join(pidsHierarchy, path);
    }
  } catch {
    // no cgroup information
  }
  return undefined;
}

export function createPidsCgroup(maxProcesses: number): PidsCgroup | undefined {
  const parent = ownPidsFolder();
  if (!parent || !existsSync(join(parent, 'cgroup.procs'))) return undefined;
  const path = join(parent, `codify-${randomUUID()}`);
  try {
    mkdirSync(path);
    writeFileSync(join(path, 'pids.max'), String(Math.max(1, Math.floor(maxProcesses))));
  } catch {
    try {
      rmdirSync(path);
    } catch {
      // never created
    }
    return undefined;
  }
  const killAll = (): void => {
    for (const pid of readPids(path)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  return {
    path,
    wrap: (command, args) => ({
      command: '/bin/sh',
      args: ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', path, command, ...args],
    }),
    limitReached: () => {
      try {
        const events = readFileSync(join(path, 'pids.events'), 'utf8');
        return Number(/max (\d+)/.exec(events)?.[1] ?? 0) > 0;
      } catch {
        return false;
      }
    },
    killAll,
    remove: async () => {
      // processes take a moment to leave the cgroup after SIGKILL
      for (let attempt = 0; attempt < 100; attempt += 1) {
        killAll();
        try {
          rmdirSync(path);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
  };
}
