import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { eventLogPath } from '../runs/event-log-file.js';
import { HttpError } from './http-error.js';

const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** How deep a nested run may sit (an evaluation's: `eval-x/runs/item/strategy/model/trial-1/RUN`). */
const maxDepth = 8;

/**
 * The folder of a run named by its id, holding events.jsonl: a child of the root, or a run
 * nested in another run's folder (an evaluation's runs), named by its path from the root
 * (`eval-x/runs/…/RUN`). Every segment must be a plain name, and neither a folder on the way
 * nor events.jsonl may be a symbolic link (sandboxed code can make links in a run folder).
 */
export function runDirectoryOf(root: string, id: string): string {
  const segments = id.split('/');
  if (
    segments.length > maxDepth ||
    segments.some((segment) => !runIdPattern.test(segment) || segment.includes('..'))
  ) {
    throw new HttpError(
      400,
      `"${id}" is not a run id (ids are folder names such as 20261122-030405-name-3fa9c1)`,
    );
  }
  const directory = join(root, id);
  const kind = entryKind(root, [...segments, 'events.jsonl']);
  if (kind === 'missing') throw new HttpError(404, `no run "${id}" in ${root}`);
  if (kind === 'link') {
    throw new HttpError(
      403,
      `"${id}" or its events.jsonl is a symbolic link, which is not followed`,
    );
  }
  if (kind !== 'file') throw new HttpError(404, `no run "${id}" in ${root}`);
  return directory;
}

/** Whether a run folder's event log is a plain file reached without a symbolic link. */
export function hasPlainEventLog(runDirectory: string): boolean {
  try {
    return (
      !lstatSync(runDirectory).isSymbolicLink() && lstatSync(eventLogPath(runDirectory)).isFile()
    );
  } catch {
    return false;
  }
}

/**
 * The path of a file inside a run folder, from a path relative to it. Absolute paths, `..` and
 * symbolic links anywhere on the way are refused, whatever their encoding (the URL is decoded
 * once before this sees it): a link inside the folder may lead anywhere by the time it is read.
 */
export function fileInRun(runDirectory: string, relativePath: string): string {
  if (relativePath === '' || relativePath.includes('\0')) {
    throw new HttpError(400, 'path must name a file inside the run folder');
  }
  if (isAbsolute(relativePath) || /^[A-Za-z]:[\\/]/.test(relativePath)) {
    throw new HttpError(
      403,
      `"${relativePath}" is absolute; give a path relative to the run folder`,
    );
  }
  const segments = relativePath
    .split(/[\\/]/)
    .filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw new HttpError(403, `"${relativePath}" leads out of the run folder`);
  }
  const kind = entryKind(runDirectory, segments);
  if (kind === 'missing') throw new HttpError(404, `the run has no file "${relativePath}"`);
  if (kind === 'link') {
    throw new HttpError(
      403,
      `"${relativePath}" is (or lies under) a symbolic link; links in a run folder are not followed`,
    );
  }
  return join(runDirectory, ...segments);
}

/** A regular file in a run folder (see fileInRun); folders are refused. */
export function regularFileInRun(runDirectory: string, relativePath: string): string {
  const path = fileInRun(runDirectory, relativePath);
  if (!lstatSync(path).isFile()) {
    throw new HttpError(400, `"${relativePath}" is a folder, not a file`);
  }
  return path;
}

/**
 * The bytes of a regular file in a run folder. The last step is opened with O_NOFOLLOW, so a
 * link swapped in after the check is refused rather than followed.
 */
export function readRunFile(runDirectory: string, relativePath: string): Buffer {
  const path = regularFileInRun(runDirectory, relativePath);
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new HttpError(403, `"${relativePath}" is a symbolic link, which is not followed`);
    }
    throw error;
  }
  try {
    if (!fstatSync(descriptor).isFile()) {
      throw new HttpError(400, `"${relativePath}" is not a regular file`);
    }
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** What `base/segments…` is, looking at every step without following links. */
function entryKind(
  base: string,
  segments: readonly string[],
): 'missing' | 'link' | 'file' | 'folder' {
  let path = base;
  for (const [index, segment] of segments.entries()) {
    path = join(path, segment);
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return 'missing';
    }
    if (stats.isSymbolicLink()) return 'link';
    if (index < segments.length - 1 && !stats.isDirectory()) return 'missing';
    if (index === segments.length - 1) return stats.isDirectory() ? 'folder' : 'file';
  }
  return 'folder';
}
