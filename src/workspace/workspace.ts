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
  /**
   * The file this version was made from when it is not the path's previous version: an edit
   * of another script saved under this name, or a copy (its version then, when it had one;
   * otherwise it was a task input, never changed).
   */
  from?: { path: string; version?: number };
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
  /** Saves a version; `from` names the file it was made from when that is another file. */
  write(path: string, content: string, reason: string, from?: string): Promise<FileVersion>;
  copy(from: string, to: string): Promise<FileVersion>;
  undo(path: string): Promise<FileVersion | undefined>;
  versions(path: string): Promise<FileVersion[]>;
  readVersion(path: string, version: number): Promise<string>;
}
