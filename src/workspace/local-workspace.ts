import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WorkspaceError } from './errors.js';
import { resolveInside } from './path-guard.js';
import type { VersionStore } from './version-store.js';
import type { FileVersion, ResolvedPath, Workspace, WorkspaceEntry } from './workspace.js';

export interface LocalWorkspaceOptions {
  /** Real path of the workspace folder. */
  root: string;
  /** Workspace-relative paths of the task inputs (files or folders), read-only to the agent. */
  readOnly: string[];
  /** A file name to suggest in refusals, e.g. the task's entry point. */
  example: string;
  /** A file name to suggest writing instead of a read-only input, e.g. the task's output. */
  outputExample: string;
  versions: VersionStore;
}

function normalize(relative: string): string {
  return relative
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

async function readIfFile(absolute: string): Promise<string | undefined> {
  try {
    return await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The workspace on the local disk; see the Workspace interface for the contract. */
export class LocalWorkspace implements Workspace {
  readonly root: string;
  private readonly readOnly: string[];

  constructor(private readonly options: LocalWorkspaceOptions) {
    this.root = options.root;
    this.readOnly = options.readOnly.map(normalize);
  }

  resolve(path: string): Promise<ResolvedPath> {
    return resolveInside(this.root, path, this.options.example);
  }

  isReadOnly(relative: string): boolean {
    const path = normalize(relative);
    return this.readOnly.some((input) => path === input || path.startsWith(`${input}/`));
  }

  async list(relativeDirectory = '.'): Promise<WorkspaceEntry[]> {
    const resolved = await this.guard(relativeDirectory);
    let names: string[];
    try {
      names = await readdir(resolved.absolute);
    } catch (error) {
      throw this.missing(relativeDirectory, error, 'directory');
    }
    const entries: WorkspaceEntry[] = [];
    for (const name of names.sort()) {
      const path = resolved.relative === '.' ? name : `${resolved.relative}/${name}`;
      try {
        const info = await stat(join(resolved.absolute, name));
        entries.push({
          path,
          kind: info.isDirectory() ? 'directory' : 'file',
          size: info.size,
          readOnly: this.isReadOnly(path),
        });
      } catch {
        // a dangling symlink: nothing the agent can use, so it is not listed
      }
    }
    return entries;
  }

  async read(path: string): Promise<string> {
    const resolved = await this.guard(path);
    try {
      return await readFile(resolved.absolute, 'utf8');
    } catch (error) {
      throw this.missing(path, error, 'file');
    }
  }

  async write(path: string, content: string, reason: string, from?: string): Promise<FileVersion> {
    const resolved = await this.guard(path);
    this.refuseReadOnly(resolved.relative);
    let before: string | undefined;
    try {
      before = await readIfFile(resolved.absolute);
    } catch (error) {
      throw this.missing(path, error, 'file');
    }
    const history = this.options.versions.live(resolved.relative);
    const latest = history.at(-1);
    if (latest !== undefined && before !== undefined) {
      // A script may have rewritten the file since the last saved version; keep that too.
      const saved = latest.absent
        ? undefined
        : await this.options.versions.read(resolved.relative, latest.version);
      if (saved !== before) {
        await this.options.versions.record(
          resolved.relative,
          undefined,
          before,
          "changed outside the agent's edits (e.g. by a script run)",
        );
      }
    }
    await mkdir(dirname(resolved.absolute), { recursive: true });
    await writeFile(resolved.absolute, content, 'utf8');
    const source = from === undefined ? undefined : (await this.guard(from)).relative;
    const sourceVersion =
      source === undefined ? undefined : this.options.versions.live(source).at(-1)?.version;
    return this.options.versions.record(
      resolved.relative,
      before,
      content,
      reason,
      source === undefined
        ? undefined
        : { path: source, ...(sourceVersion === undefined ? {} : { version: sourceVersion }) },
    );
  }

  async copy(from: string, to: string): Promise<FileVersion> {
    const source = await this.guard(from);
    const destination = await this.guard(to);
    if (source.relative === destination.relative) {
      throw new WorkspaceError(
        `refused: ${from} and ${to} are the same file; name a new destination`,
      );
    }
    this.refuseReadOnly(destination.relative);
    const content = await this.read(source.relative);
    return this.write(
      destination.relative,
      content,
      `copied from ${source.relative}`,
      source.relative,
    );
  }

  async undo(path: string): Promise<FileVersion | undefined> {
    const resolved = await this.guard(path);
    this.refuseReadOnly(resolved.relative);
    const restored = await this.options.versions.undo(resolved.relative);
    if (restored.absent) {
      await rm(resolved.absolute, { force: true });
    } else {
      const content = await this.options.versions.read(resolved.relative, restored.version);
      await mkdir(dirname(resolved.absolute), { recursive: true });
      await writeFile(resolved.absolute, content, 'utf8');
    }
    return restored;
  }

  async versions(path: string): Promise<FileVersion[]> {
    const resolved = await this.guard(path);
    return this.options.versions.live(resolved.relative);
  }

  async readVersion(path: string, version: number): Promise<string> {
    const resolved = await this.guard(path);
    const found = this.options.versions.find(resolved.relative, version);
    if (found === undefined) {
      // A file never written has one version: what is on disk now.
      if (version === 0 && this.options.versions.live(resolved.relative).length === 0) {
        return this.read(resolved.relative);
      }
      const known = this.options.versions.live(resolved.relative).map((entry) => entry.version);
      throw new WorkspaceError(
        `${resolved.relative} has no version ${version}; ${known.length === 0 ? 'it has never been edited, so only version 0 (its current content) exists' : `its versions are ${known.join(', ')}`}`,
      );
    }
    if (found.absent) return '';
    return this.options.versions.read(resolved.relative, version);
  }

  private async guard(path: string): Promise<{ absolute: string; relative: string }> {
    const resolved = await this.resolve(path);
    if (!resolved.ok) throw new WorkspaceError(resolved.reason);
    return resolved;
  }

  private refuseReadOnly(relative: string): void {
    if (!this.isReadOnly(relative)) return;
    throw new WorkspaceError(
      `refused: ${relative} is a task input and read-only; write your changes to a new file instead, e.g. ${this.options.outputExample}`,
    );
  }

  private missing(path: string, error: unknown, kind: 'file' | 'directory'): WorkspaceError {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return new WorkspaceError(
        `${path} does not exist in the workspace; use List Files to see what is there`,
      );
    }
    if (code === 'EISDIR') {
      return new WorkspaceError(
        `${path} is a directory, not a file; use List Files to see what is in it`,
      );
    }
    if (code === 'ENOTDIR') {
      return new WorkspaceError(`${path} is not a ${kind}`);
    }
    return new WorkspaceError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
