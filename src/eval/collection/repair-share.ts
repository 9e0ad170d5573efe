import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const inert = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
const emptyTree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function numstat(repo: string, from: string, to: string): Promise<Map<string, number>> {
  const { stdout } = await run('git', ['-C', repo, ...inert, 'diff', '--numstat', from, to]);
  const lines = new Map<string, number>();
  for (const row of stdout.split('\n')) {
    const [added, removed, path] = row.split('\t');
    // Binary files show "-": they have no lines to count.
    if (path === undefined || added === '-' || removed === '-') continue;
    lines.set(path, Number(added) + Number(removed));
  }
  return lines;
}

/**
 * The share of the generated files' lines that repair changed: lines added or removed by
 * the verify stage's commit over the lines of those files before it. Files the smoke run
 * itself wrote (outputs, caches) are not the repository's code and are left out.
 */
export async function repairLineShare(
  repo: string,
  verifyCommit: string,
  files: readonly string[],
): Promise<number | null> {
  try {
    const wanted = new Set(files);
    const before = await numstat(repo, emptyTree, `${verifyCommit}~1`);
    const changed = await numstat(repo, `${verifyCommit}~1`, verifyCommit);
    let total = 0;
    for (const [path, count] of before) if (wanted.has(path)) total += count;
    let edited = 0;
    for (const [path, count] of changed) if (wanted.has(path)) edited += count;
    return total === 0 ? null : edited / total;
  } catch {
    return null;
  }
}
