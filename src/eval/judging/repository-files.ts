import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceFile } from './relevant-files.js';

const skippedFolders = new Set(['.git', '__pycache__', 'outputs', 'runs', 'node_modules', '.venv']);
const maxFileBytes = 200_000;

/** A repository's text files for a judge, smallest paths first; binaries, caches and outputs left out. */
export function repositoryFiles(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) walk(path);
        continue;
      }
      if (!entry.isFile() || statSync(path).size > maxFileBytes) continue;
      const buffer = readFileSync(path);
      // A NUL byte in the first kilobytes: a binary file, nothing a judge reads.
      if (buffer.subarray(0, 8000).includes(0)) continue;
      files.push({ path: relative(root, path), content: buffer.toString('utf8') });
    }
  };
  walk(root);
  return files;
}
