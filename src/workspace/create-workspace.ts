import { chmod, cp, lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import type { Task } from '../tasks/types.js';
import { WorkspaceError } from './errors.js';
import { LocalWorkspace } from './local-workspace.js';
import { VersionStore } from './version-store.js';
import type { Workspace } from './workspace.js';

export interface CreateWorkspaceOptions {
  task: Task;
  /** Absolute path of the run folder; the workspace is `<runDir>/workspace/`. */
  runDir: string;
}

function checkInputName(input: string, task: Task): void {
  const clean = normalize(input);
  if (isAbsolute(clean) || clean.startsWith('..')) {
    throw new WorkspaceError(
      `task input ${input} in ${task.dir} is outside the task folder; list inputs relative to the task folder`,
    );
  }
}

async function open(task: Task, runDir: string): Promise<Workspace> {
  const root = await realpath(join(runDir, 'workspace'));
  return new LocalWorkspace({
    root,
    readOnly: task.inputFiles.map((input) => normalize(input)),
    example: task.entrypoint,
    outputExample: task.output,
    versions: await VersionStore.open(runDir),
  });
}

/** Copies the task's input files into `<runDir>/workspace/` and opens it. */
export async function createWorkspace({
  task,
  runDir,
}: CreateWorkspaceOptions): Promise<Workspace> {
  const root = join(runDir, 'workspace');
  await mkdir(root, { recursive: true });
  for (const input of task.inputFiles) {
    checkInputName(input, task);
    const source = join(task.inputDir ?? task.dir, input);
    const destination = join(root, input);
    try {
      // dereference: a symlinked input becomes a real copy, so the chmod below never
      // reaches the file the link points to (which may be the user's own data).
      await cp(source, destination, { recursive: true, force: true, dereference: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new WorkspaceError(
        code === 'ENOENT'
          ? `task input ${source} does not exist; add it to the task folder or remove it from the task's inputs`
          : `cannot copy task input ${source}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // Read-only on disk too, so a script run without the sandbox cannot change an input.
    if ((await lstat(destination)).isFile()) await chmod(destination, 0o444);
  }
  return open(task, runDir);
}

/** Re-opens the workspace of an earlier run (for resume), with its version history. */
export async function openWorkspace(runDir: string, task: Task): Promise<Workspace> {
  try {
    if (!(await stat(join(runDir, 'workspace'))).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new WorkspaceError(
      `${join(runDir, 'workspace')} is missing, so this run cannot be resumed; start a new run instead`,
    );
  }
  return open(task, runDir);
}
