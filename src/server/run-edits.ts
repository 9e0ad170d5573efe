import { diffStatistics, unifiedDiff } from '../workspace/unified-diff.js';
import type { FileEdit, RunEdits, SkippedVersion } from './api-types.js';
import { HttpError } from './http-error.js';
import { readRunFile } from './run-paths.js';

interface StoredVersion {
  version: number;
  path: string;
  reason: string;
  time: string;
  absent?: boolean;
  undone?: boolean;
  /** The file it was made from, when not the path's previous version (an edit saved under a new name, a copy). */
  from?: { path: string; version?: number };
}

/**
 * Every version the agent saved of every file (versions.json and versions/<path>/<n>), each
 * with its diff from the version before it, oldest first per file. A version that cannot be
 * read (a symbolic link, which is never followed, or any other refusal) is skipped and listed
 * with its reason, so one bad entry does not hide every other edit.
 */
export function readRunEdits(runDirectory: string): RunEdits {
  let indexText: string;
  try {
    indexText = readRunFile(runDirectory, 'versions.json').toString('utf8');
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { edits: [], skipped: [] };
    throw error;
  }
  let index: Record<string, StoredVersion[]>;
  try {
    index = JSON.parse(indexText) as Record<string, StoredVersion[]>;
  } catch (error) {
    throw new HttpError(500, `versions.json is unreadable: ${String(error)}`);
  }
  const edits: FileEdit[] = [];
  const skipped: SkippedVersion[] = [];
  for (const [path, versions] of Object.entries(index)) {
    if (!Array.isArray(versions)) continue;
    let previous = '';
    for (const entry of [...versions].sort((left, right) => left.version - right.version)) {
      let content: string;
      try {
        content = entry.absent === true ? '' : readVersion(runDirectory, path, entry.version);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        skipped.push({ path, version: entry.version, reason: error.message });
        continue;
      }
      const base = madeFrom(runDirectory, entry);
      const diff =
        entry.version === 0
          ? ''
          : base === undefined
            ? unifiedDiff(path, path, previous, content)
            : unifiedDiff(base.path, path, base.content, content);
      edits.push({
        path,
        version: entry.version,
        reason: entry.reason,
        time: entry.time,
        undone: entry.undone === true,
        diff,
        ...(base === undefined ? {} : { from: base.path }),
        ...diffStatistics(diff),
      });
      // An undone version is shown against what came before it, and the next one too.
      if (entry.undone !== true) previous = content;
    }
  }
  return { edits: edits.sort((left, right) => left.time.localeCompare(right.time)), skipped };
}

/**
 * The file a version was made from and its content then: that file's saved version, or, for
 * a task input (never versioned, never changed), the file in the run's workspace. Undefined
 * when the version was made from the path's own previous version, or the source is unreadable.
 */
function madeFrom(
  runDirectory: string,
  entry: StoredVersion,
): { path: string; content: string } | undefined {
  const from = entry.from;
  if (from === undefined) return undefined;
  try {
    const content =
      from.version === undefined
        ? readRunFile(runDirectory, `workspace/${from.path}`).toString('utf8')
        : readVersion(runDirectory, from.path, from.version);
    return { path: from.path, content };
  } catch (error) {
    if (error instanceof HttpError) return undefined;
    throw error;
  }
}

function readVersion(runDirectory: string, path: string, version: number): string {
  try {
    return readRunFile(runDirectory, `versions/${path}/${version}`).toString('utf8');
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return '';
    throw error;
  }
}
