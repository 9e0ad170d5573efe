import { execFile } from 'node:child_process';

export interface BubblewrapStatus {
  found: boolean;
  version?: string;
  canStart: boolean;
  detail: string;
}

function run(
  file: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 15_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Whether bubblewrap is installed and can actually start an isolated process here. */
export async function checkBubblewrap(binary = 'bwrap'): Promise<BubblewrapStatus> {
  const version = await run(binary, ['--version']);
  if (version.code !== 0) {
    return { found: false, canStart: false, detail: 'bwrap was not found on PATH' };
  }
  const trial = await run(binary, [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '/bin/sh',
    '-c',
    'echo sandbox-ok',
  ]);
  const canStart = trial.code === 0 && trial.stdout.includes('sandbox-ok');
  return {
    found: true,
    version: version.stdout.trim(),
    canStart,
    detail: canStart
      ? 'started an isolated process (user, pid, net, ipc namespaces)'
      : `could not start a sandbox: ${trial.stderr.trim() || `exit ${trial.code}`}`,
  };
}
