import { unifiedDiff } from './unified-diff.js';
import type { Workspace } from './workspace.js';

/** The unified diff of one file between two of its versions (0 is the original). */
export async function diffVersions(
  workspace: Workspace,
  path: string,
  fromVersion: number,
  toVersion: number,
): Promise<string> {
  const before = await workspace.readVersion(path, fromVersion);
  const after = await workspace.readVersion(path, toVersion);
  return unifiedDiff(
    `${path} (version ${fromVersion})`,
    `${path} (version ${toVersion})`,
    before,
    after,
  );
}

/** The unified diff between the current contents of two files. */
export async function diffFiles(
  workspace: Workspace,
  fromPath: string,
  toPath: string,
): Promise<string> {
  const before = await workspace.read(fromPath);
  const after = await workspace.read(toPath);
  return unifiedDiff(fromPath, toPath, before, after);
}
