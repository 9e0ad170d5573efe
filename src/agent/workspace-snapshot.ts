import type { Workspace } from '../workspace/workspace.js';

async function editableFiles(workspace: Workspace, directory = '.'): Promise<string[]> {
  const files: string[] = [];
  let entries;
  try {
    entries = await workspace.list(directory);
  } catch {
    return files;
  }
  for (const entry of entries) {
    if (entry.readOnly) continue;
    if (entry.kind === 'directory') files.push(...(await editableFiles(workspace, entry.path)));
    else files.push(entry.path);
  }
  return files;
}

/** Live version counts of every editable file that has versions. */
export async function snapshotFiles(workspace: Workspace): Promise<Record<string, number>> {
  const snapshot: Record<string, number> = {};
  for (const path of await editableFiles(workspace)) {
    try {
      const count = (await workspace.versions(path)).length;
      if (count > 0) snapshot[path] = count;
    } catch {
      // a file the workspace cannot version is left as it is
    }
  }
  return snapshot;
}

/**
 * Undoes the edits an incomplete step made after the snapshot, so the step can be redone
 * on the files as they were. Returns the files it rolled back.
 */
export async function restoreFiles(
  workspace: Workspace,
  snapshot: Record<string, number>,
): Promise<string[]> {
  const restored: string[] = [];
  for (const path of await editableFiles(workspace)) {
    const target = snapshot[path] ?? 0;
    try {
      let count = (await workspace.versions(path)).length;
      while (count > target) {
        await workspace.undo(path);
        const after = (await workspace.versions(path)).length;
        if (after >= count) break;
        count = after;
        if (!restored.includes(path)) restored.push(path);
      }
    } catch {
      // nothing more to undo
    }
  }
  return restored;
}
