import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

const identity = [
  '-c',
  'user.name=codify',
  '-c',
  'user.email=codify@localhost',
  '-c',
  'commit.gpgsign=false',
];

/**
 * Settings that keep git from running anything the generated code could have planted in
 * the repository: no hooks, no filesystem monitor command.
 */
const inert = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

/** Makes `dir` a git repository; false (with the reason) when git is not usable here. */
export async function initRepository(
  dir: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await run('git', ['init', '-q', '-b', 'main', dir]);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Commits everything in `dir` as one stage; returns the short hash, or undefined if nothing changed. */
export async function commitStage(dir: string, message: string): Promise<string | undefined> {
  await run('git', ['-C', dir, ...inert, 'add', '-A']);
  const status = await run('git', ['-C', dir, ...inert, 'status', '--porcelain']);
  if (status.stdout.trim() === '') return undefined;
  await run('git', [
    '-C',
    dir,
    ...inert,
    ...identity,
    'commit',
    '-q',
    '--no-verify',
    '-m',
    message,
  ]);
  const hash = await run('git', ['-C', dir, ...inert, 'rev-parse', '--short', 'HEAD']);
  return hash.stdout.trim();
}

/**
 * Puts the repository back as its last stage commit left it, for a resumed run: whatever
 * the interrupted stage had written (or a repair had half edited) goes, and the stage is
 * redone from the state it started in. Nothing happens before the first commit.
 */
export async function restoreLastCommit(dir: string): Promise<void> {
  const head = await run('git', ['-C', dir, ...inert, 'rev-parse', '--verify', '-q', 'HEAD']).catch(
    () => undefined,
  );
  if (head === undefined) return;
  await run('git', ['-C', dir, ...inert, 'reset', '-q', '--hard', 'HEAD']);
  await run('git', ['-C', dir, ...inert, 'clean', '-q', '-f', '-d']);
}
