import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ResolvedPath } from './workspace.js';

function isInside(root: string, absolute: string): boolean {
  const fromRoot = relative(root, absolute);
  return fromRoot === '' || (!fromRoot.startsWith('..') && !isAbsolute(fromRoot));
}

function leaves(path: string, example: string): ResolvedPath {
  return {
    ok: false,
    reason: `refused: ${path} leaves the workspace; name files relative to the workspace, e.g. ${example}`,
  };
}

/** Where a symlink points, even when its target does not exist. */
async function symlinkTarget(link: string): Promise<string> {
  try {
    return await realpath(link);
  } catch {
    return resolve(dirname(link), await readlink(link));
  }
}

/**
 * Confines a path an action named to `root` (a real path, no symlinks in it): `..` that
 * climbs out, absolute paths elsewhere, and symlinks anywhere along the path that point
 * outside are refused with a reason the model can act on.
 */
export async function resolveInside(
  root: string,
  path: string,
  example: string,
): Promise<ResolvedPath> {
  const trimmed = path.trim();
  if (trimmed === '')
    return { ok: false, reason: `refused: the path is empty; name a file, e.g. ${example}` };
  if (trimmed.includes('\0'))
    return { ok: false, reason: 'refused: the path holds a NUL character' };
  const absolute = isAbsolute(trimmed) ? resolve(trimmed) : resolve(root, trimmed);
  if (!isInside(root, absolute)) return leaves(trimmed, example);
  const relativePath = relative(root, absolute);
  let current = root;
  for (const part of relativePath === '' ? [] : relativePath.split(sep)) {
    const next = join(current, part);
    let isLink: boolean;
    try {
      isLink = (await lstat(next)).isSymbolicLink();
    } catch {
      break; // the rest of the path does not exist yet, so no symlink can hide in it
    }
    if (!isLink) {
      current = next;
      continue;
    }
    const target = await symlinkTarget(next);
    if (!isInside(root, target)) {
      return {
        ok: false,
        reason: `refused: ${trimmed} goes through the symlink ${relative(root, next)}, which points outside the workspace; name files inside the workspace, e.g. ${example}`,
      };
    }
    current = target;
  }
  return {
    ok: true,
    absolute,
    relative: relativePath === '' ? '.' : relativePath.split(sep).join('/'),
  };
}
