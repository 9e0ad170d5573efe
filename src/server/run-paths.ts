import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { eventLogPath } from '../runs/event-log-file.js';
import { HttpError } from './http-error.js';

const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** How deep a nested run may sit (an evaluation's: `eval-x/runs/item/strategy/model/trial-1/RUN`). */
const maxDepth = 8;

/**
 * The folder of a run named by its id, holding events.jsonl: a child of the root, or a run
 * nested in another run's folder (an evaluation's runs), named by its path from the root
 * (`eval-x/runs/…/RUN`). Every segment must be a plain name; the real path stays inside.
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
  if (!existsSync(eventLogPath(directory))) {
    throw new HttpError(404, `no run "${id}" in ${root}`);
  }
  assertInside(root, directory, id);
  return directory;
}

/**
 * The real path of a file inside a run folder, from a path relative to it. Absolute paths,
 * `..` and symbolic links that lead out of the run folder are refused, whatever their encoding
 * (the URL is decoded once before this sees it).
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
  if (relativePath.split(/[\\/]/).includes('..')) {
    throw new HttpError(403, `"${relativePath}" leads out of the run folder`);
  }
  const candidate = resolve(runDirectory, relativePath);
  if (!existsSync(candidate)) throw new HttpError(404, `the run has no file "${relativePath}"`);
  return assertInside(runDirectory, candidate, relativePath);
}

/** Resolves symbolic links on both sides and refuses a target outside the folder. */
function assertInside(folder: string, candidate: string, shown: string): string {
  const realFolder = realpathSync(folder);
  const real = realpathSync(candidate);
  const inside = relative(realFolder, real);
  if (inside === '' || (!inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside))) {
    return real;
  }
  throw new HttpError(403, `"${shown}" leads out of the run folder`);
}

/** The real path of a regular file in a run folder (see fileInRun); folders are refused. */
export function regularFileInRun(runDirectory: string, relativePath: string): string {
  const path = fileInRun(runDirectory, relativePath);
  if (!statSync(path).isFile())
    throw new HttpError(400, `"${relativePath}" is a folder, not a file`);
  return path;
}
