import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's files as the report lists them: source by lines, anything else by size. */
export interface RepositoryFiles {
  files: { path: string; lines: number }[];
  /** Files that are not text (an image, a checkpoint the model asked to keep): bytes, not lines. */
  binaryFiles: { path: string; bytes: number }[];
}

/** What git tracks; undefined when git cannot say (no repository, no git). */
function trackedFiles(root: string): string[] | undefined {
  try {
    const listed = execFileSync(
      'git',
      ['-C', root, '-c', 'core.fsmonitor=false', 'ls-files', '-z'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return listed.split('\0').filter((path) => path !== '');
  } catch {
    return undefined;
  }
}

function walk(root: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === '__pycache__') continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...walk(root, path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text lines, or undefined for a file that is not text (a NUL byte, or not UTF-8). */
function lineCount(bytes: Buffer): number | undefined {
  if (bytes.includes(0)) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * The files of the repository: those git tracks when it is a repository (so what the runs
 * wrote and git ignores is not listed), else every file but `.git` and byte code. Text
 * files are counted in lines; the rest are listed apart by size.
 */
export function repositoryFiles(root: string, git: boolean): RepositoryFiles {
  const paths = (git ? trackedFiles(root) : undefined) ?? walk(root);
  const files: RepositoryFiles['files'] = [];
  const binaryFiles: RepositoryFiles['binaryFiles'] = [];
  for (const path of [...paths].sort((first, second) => first.localeCompare(second))) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      continue;
    }
    const lines = lineCount(bytes);
    if (lines === undefined) binaryFiles.push({ path, bytes: bytes.length });
    else files.push({ path, lines });
  }
  return { files, binaryFiles };
}
