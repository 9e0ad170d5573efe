import type { Task } from '../../tasks/types.js';
import type { Workspace } from '../../workspace/workspace.js';

/**
 * What a script's changed lines are measured against: its previous version when it has a
 * real one, else the task's starter code (for a file made by copying and editing it).
 */
export async function executionBaseline(
  workspace: Workspace,
  task: Task,
  relative: string,
): Promise<{ label: string; text: string } | undefined> {
  const history = await workspace.versions(relative);
  const previous = history.at(-2);
  if (previous !== undefined && !previous.absent) {
    return {
      label: `version ${previous.version}`,
      text: await workspace.readVersion(relative, previous.version),
    };
  }
  if (relative === task.entrypoint) return undefined;
  try {
    return { label: task.entrypoint, text: await workspace.read(task.entrypoint) };
  } catch {
    return undefined;
  }
}
