import { execFile } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Sandbox } from '../sandbox/types.js';

const run = promisify(execFile);

/** Files git would add: untracked and not ignored (by .gitignore or .git/info/exclude). */
async function untrackedFiles(repoDir: string): Promise<string[]> {
  const listed = await run(
    'git',
    [
      '-C',
      repoDir,
      '-c',
      'core.fsmonitor=false',
      'ls-files',
      '--others',
      '--exclude-standard',
      '-z',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return listed.stdout.split('\0').filter((path) => path !== '');
}

function modifiedSince(path: string, since: number): boolean {
  try {
    return statSync(path).mtimeMs >= since;
  } catch {
    return false;
  }
}

/** A NUL byte in the first 8 KB: a checkpoint, an array, an image, not source. */
function isBinary(path: string): boolean {
  try {
    const descriptor = openSync(path, 'r');
    try {
      const head = Buffer.alloc(8192);
      const read = readSync(descriptor, head, 0, head.length, 0);
      return head.subarray(0, read).includes(0);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return false;
  }
}

/**
 * What the smoke run and the tests write into the repository, told from what repair writes:
 * each run through `watch(sandbox)` notes the untracked files it created or rewrote. The
 * outputs of a run the .gitignore does not name (results.json, a downloaded data file) are
 * then kept out of the history and of `git status` by `.git/info/exclude`.
 */
export class RunOutputs {
  private readonly found = new Set<string>();

  constructor(private readonly repoDir: string) {}

  /** The sandbox, each run followed by a look at what it wrote. */
  watch(sandbox: Sandbox): Sandbox {
    return {
      kind: sandbox.kind,
      run: async (request) => {
        const started = Date.now();
        const result = await sandbox.run(request);
        for (const path of await untrackedFiles(this.repoDir).catch(() => []))
          if (modifiedSince(join(this.repoDir, path), started)) this.found.add(path);
        return result;
      },
    };
  }

  /**
   * Excludes the runs' outputs and any binary file left untracked (a checkpoint the repair's
   * own runs wrote); returns what was excluded, sorted: a top-level folder whole (`data/`)
   * when it holds nothing tracked and nothing else untracked, else each file.
   */
  async exclude(): Promise<string[]> {
    const untracked = await untrackedFiles(this.repoDir).catch(() => []);
    const outputs = untracked.filter(
      (path) => this.found.has(path) || isBinary(join(this.repoDir, path)),
    );
    if (outputs.length === 0) return [];
    const excluded = foldFolders(outputs, untracked, await trackedFiles(this.repoDir));
    mkdirSync(join(this.repoDir, '.git', 'info'), { recursive: true });
    appendFileSync(
      join(this.repoDir, '.git', 'info', 'exclude'),
      `# written by codify's smoke run and tests, not source\n${excluded.map(escapePattern).join('\n')}\n`,
    );
    return excluded;
  }
}

async function trackedFiles(repoDir: string): Promise<string[]> {
  const listed = await run('git', ['-C', repoDir, '-c', 'core.fsmonitor=false', 'ls-files', '-z'], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch(() => ({ stdout: '' }));
  return listed.stdout.split('\0').filter((path) => path !== '');
}

/**
 * A data set a run downloaded is thousands of files: its top-level folder stands for them
 * (`data/`) when nothing in it is tracked or untracked source. Other outputs stay one by one.
 */
function foldFolders(outputs: string[], untracked: string[], tracked: string[]): string[] {
  const top = (path: string) => (path.includes('/') ? path.split('/')[0] : undefined);
  const outputSet = new Set(outputs);
  const mixed = new Set([
    ...tracked.map(top),
    ...untracked.filter((path) => !outputSet.has(path)).map(top),
  ]);
  const folded = new Set<string>();
  for (const path of outputs) {
    const folder = top(path);
    folded.add(folder !== undefined && !mixed.has(folder) ? `${folder}/` : path);
  }
  return [...folded].sort();
}

/** A path as a gitignore pattern anchored at the repository root (`data/` stays a folder). */
const escapePattern = (path: string) => `/${path.replace(/([\\*?[\]!# ])/g, '\\$1')}`;
