import type { Workspace } from '../../workspace/workspace.js';

const importLine = /^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.,\s]+?)\s*(?:#.*)?$)/gm;

/** The module names a Python source imports (top-level names, in order, each once). */
export function importedModules(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(importLine)) {
    const from = match[1];
    const listed = from === undefined ? (match[2] ?? '').split(',') : [from];
    for (const item of listed) {
      const name =
        item
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      // A relative import (`from . import x`) names no file we can resolve here.
      if (name === '' || name.startsWith('.')) continue;
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * The workspace files among a script's imports (`model` → `model.py`, `pkg.sub` →
 * `pkg/sub.py` or `pkg/sub/__init__.py`), so a reviewer sees the code the script calls.
 */
export async function localImports(
  workspace: Workspace,
  source: string,
): Promise<{ name: string; content: string }[]> {
  const found: { name: string; content: string }[] = [];
  for (const module of importedModules(source)) {
    const base = module.replace(/\./g, '/');
    for (const candidate of [`${base}.py`, `${base}/__init__.py`]) {
      try {
        found.push({ name: candidate, content: await workspace.read(candidate) });
        break;
      } catch {
        // not a file of the workspace: a library module
      }
    }
  }
  return found;
}
