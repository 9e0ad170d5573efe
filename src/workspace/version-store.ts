import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WorkspaceError } from './errors.js';
import type { FileVersion } from './workspace.js';

interface StoredVersion extends FileVersion {
  /** Undone versions stay on disk (nothing is lost) but leave the live history. */
  undone?: boolean;
}

type VersionIndex = Record<string, StoredVersion[]>;

/**
 * Every content a file has had, under `<runDir>/versions/<path>/<n>`, with a JSON index in
 * `<runDir>/versions.json` (outside versions/, so no workspace file name can collide with it).
 * Version 0 is the file before the agent first wrote it (or its absence).
 */
export class VersionStore {
  private constructor(
    private readonly directory: string,
    private readonly indexPath: string,
    private readonly index: VersionIndex,
  ) {}

  static async open(runDirectory: string): Promise<VersionStore> {
    const directory = join(runDirectory, 'versions');
    const indexPath = join(runDirectory, 'versions.json');
    await mkdir(directory, { recursive: true });
    let index: VersionIndex = {};
    try {
      index = JSON.parse(await readFile(indexPath, 'utf8')) as VersionIndex;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new WorkspaceError(`the version index ${indexPath} is unreadable: ${String(error)}`);
      }
    }
    return new VersionStore(directory, indexPath, index);
  }

  /** The live history of a file, oldest first, version 0 included; empty if never written. */
  live(path: string): FileVersion[] {
    return (this.index[path] ?? []).filter((entry) => !entry.undone).map(publicVersion);
  }

  /** Records `content` as the next version; `before` is the content before the first write. */
  async record(
    path: string,
    before: string | undefined,
    content: string,
    reason: string,
    from?: FileVersion['from'],
  ): Promise<FileVersion> {
    const entries = this.index[path] ?? [];
    if (entries.length === 0) {
      const original: StoredVersion = {
        version: 0,
        path,
        reason: before === undefined ? 'absent before the first write' : 'original',
        time: new Date().toISOString(),
        ...(before === undefined ? { absent: true } : {}),
      };
      await this.store(path, 0, before ?? '');
      entries.push(original);
    }
    const version = Math.max(...entries.map((entry) => entry.version)) + 1;
    const entry: StoredVersion = {
      version,
      path,
      reason,
      time: new Date().toISOString(),
      ...(from === undefined ? {} : { from }),
    };
    await this.store(path, version, content);
    entries.push(entry);
    this.index[path] = entries;
    await this.saveIndex();
    return publicVersion(entry);
  }

  /** Marks the current version undone; returns the version that is now current. */
  async undo(path: string): Promise<FileVersion> {
    const live = (this.index[path] ?? []).filter((entry) => !entry.undone);
    const current = live.at(-1);
    const previous = live.at(-2);
    if (current === undefined || previous === undefined) {
      throw new WorkspaceError(
        `refused: ${path} has no earlier version to go back to; it has not been edited (or every edit is already undone)`,
      );
    }
    current.undone = true;
    await this.saveIndex();
    return publicVersion(previous);
  }

  find(path: string, version: number): FileVersion | undefined {
    const entry = (this.index[path] ?? []).find((candidate) => candidate.version === version);
    return entry === undefined ? undefined : publicVersion(entry);
  }

  async read(path: string, version: number): Promise<string> {
    return readFile(this.file(path, version), 'utf8');
  }

  private file(path: string, version: number): string {
    return join(this.directory, path, String(version));
  }

  private async store(path: string, version: number, content: string): Promise<void> {
    const file = this.file(path, version);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content, 'utf8');
  }

  private async saveIndex(): Promise<void> {
    await writeFile(this.indexPath, `${JSON.stringify(this.index, null, 2)}\n`);
  }
}

function publicVersion(entry: StoredVersion): FileVersion {
  const visible: FileVersion = {
    version: entry.version,
    path: entry.path,
    reason: entry.reason,
    time: entry.time,
  };
  if (entry.absent) visible.absent = true;
  if (entry.from !== undefined) visible.from = entry.from;
  return visible;
}
