import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders that are never task inputs, at any depth: caches and version control. */
export const skippedFolders = new Set(['__pycache__', '.git']);

/** codify's own run folders, skipped at the top of the task folder only. */
export const skippedTopFolders = new Set(['runs']);

/** Every file under `root`, relative to it with `/` separators, sorted; skips caches and runs/. */
export async function listInputFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        const skipped =
          skippedFolders.has(entry.name) || (relative === '' && skippedTopFolders.has(entry.name));
        if (!skipped) await walk(path);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        found.push(path);
      }
    }
  }
  await walk('');
  return found.sort();
}
