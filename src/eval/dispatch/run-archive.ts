import { CodifyError } from '../../errors/codify-error.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A combination's run folders, packed by a worker to travel back in its job's result. */
export interface RunArchive {
  /** A gzip-compressed tar of the combination's root, base64-encoded. */
  data: string;
  /** Compressed size. */
  bytes: number;
  /** The evaluation folder the worker ran it in: its paths in the logs are rewritten. */
  from: string;
}

/** Over the size cap: the run must come back through a shared folder instead. */
export class ArchiveTooLargeError extends CodifyError {
  constructor(message: string) {
    super(message, exitCodes.runFailed);
    this.name = 'ArchiveTooLargeError';
  }
}

/** Default cap on one run's compressed folders: Redis keeps the result until fetched. */
export const defaultMaxResultBytes = 32 * 1024 * 1024;

/** Packs every file under `root` (tar + gzip, by the system's tar), refusing above `maxBytes`. */
export async function packRoot(root: string, from: string, maxBytes: number): Promise<RunArchive> {
  const scratch = mkdtempSync(join(tmpdir(), 'codify-pack-'));
  try {
    const file = join(scratch, 'runs.tar.gz');
    await run('tar', ['-czf', file, '-C', root, '.']);
    const packed = readFileSync(file);
    if (packed.length > maxBytes) {
      throw new ArchiveTooLargeError(
        `the run folders of ${root} are ${(packed.length / 1048576).toFixed(1)} MB compressed, over the cap of ${(maxBytes / 1048576).toFixed(1)} MB for results sent through the queue: raise --max-result-mb, or use --results shared with a folder the workers share`,
      );
    }
    return { data: packed.toString('base64'), bytes: packed.length, from };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Files whose text names paths: the logs, the results, the reports. */
const textExtensions = new Set(['.json', '.jsonl', '.md']);

function rewritePaths(dir: string, from: string, to: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // A generated repository's history stays as it was committed.
    if (entry.isDirectory() && entry.name !== '.git') rewritePaths(path, from, to);
    else if (entry.isFile() && textExtensions.has(extname(entry.name))) {
      const text = readFileSync(path, 'utf8');
      if (text.includes(from)) writeFileSync(path, text.split(from).join(to));
    }
  }
}

/**
 * Unpacks a worker's archive into the combination's root in this evaluation folder, and
 * rewrites the worker's evaluation folder to this one in the logs and results, so every
 * path they name (run folders, result.json, experiments) points here.
 */
export async function unpackRoot(archive: RunArchive, root: string, evalDir: string) {
  const scratch = mkdtempSync(join(tmpdir(), 'codify-unpack-'));
  try {
    const file = join(scratch, 'runs.tar.gz');
    writeFileSync(file, Buffer.from(archive.data, 'base64'));
    const unpacked = join(scratch, 'root');
    mkdirSync(unpacked);
    await run('tar', ['-xzf', file, '-C', unpacked]);
    rewritePaths(unpacked, archive.from, evalDir);
    mkdirSync(root, { recursive: true });
    // Folder by folder: an earlier attempt's folders already here stay.
    for (const entry of readdirSync(unpacked)) {
      const target = join(root, entry);
      if (existsSync(target)) rmSync(target, { recursive: true, force: true });
      cpSync(join(unpacked, entry), target, { recursive: true });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
