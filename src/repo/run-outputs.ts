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
   * own runs wrote); returns the paths excluded, sorted.
   */
  async exclude(): Promise<string[]> {
    const untracked = await untrackedFiles(this.repoDir).catch(() => []);
    const outputs = untracked
      .filter((path) => this.found.has(path) || isBinary(join(this.repoDir, path)))
      .sort();
    if (outputs.length === 0) return outputs;
    mkdirSync(join(this.repoDir, '.git', 'info'), { recursive: true });
    appendFileSync(
      join(this.repoDir, '.git', 'info', 'exclude'),
      `# written by codify's smoke run and tests, not source\n${outputs.map(escapePattern).join('\n')}\n`,
    );
    return outputs;
  }
}

/** A path as a gitignore pattern matching exactly that file from the repository root. */
const escapePattern = (path: string) => `/${path.replace(/([\\*?[\]!# ])/g, '\\$1')}`;
