/** A path an action named, checked against the workspace. */
export type ResolvedPath =
  { ok: true; absolute: string; relative: string } | { ok: false; reason: string };

export interface WorkspaceEntry {
  path: string;
  kind: 'file' | 'directory';
  size: number;
  readOnly: boolean;
}

export interface FileVersion {
  /** 1 for the first saved version of a file. */
  version: number;
  /** Workspace-relative path of the file. */
  path: string;
  reason: string;
  time: string;
  /** The file did not exist at this version (only ever version 0: created by the agent). */
  absent?: boolean;
}

/**
 * The agent's working copy of a task. Every path is confined to `root`; task inputs are
 * read-only; every write is kept as a version so it can be undone and diffed.
 * Methods throw WorkspaceError (src/workspace/errors.ts) with a reason the model can act on.
 */
export interface Workspace {
  readonly root: string;
  resolve(path: string): Promise<ResolvedPath>;
  isReadOnly(relative: string): boolean;
  list(relativeDirectory?: string): Promise<WorkspaceEntry[]>;
  read(path: string): Promise<string>;
  write(path: string, content: string, reason: string): Promise<FileVersion>;
  copy(from: string, to: string): Promise<FileVersion>;
  undo(path: string): Promise<FileVersion | undefined>;
  versions(path: string): Promise<FileVersion[]>;
  readVersion(path: string, version: number): Promise<string>;
}
