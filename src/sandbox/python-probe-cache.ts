import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TorchCudaProbe } from './torch-cuda.js';

/** The slow answers about one interpreter, valid while its fingerprint stays the same. */
interface CachedProbes {
  fingerprint: string;
  modules: Record<string, boolean>;
  /** Torch's view of CUDA, by the GPU devices present when it was asked. */
  torchCuda: Record<string, TorchCudaProbe>;
}

/** `$XDG_CACHE_HOME/codify/python-probes.json`, or under ~/.cache. */
export function defaultProbeCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ''
      ? env.XDG_CACHE_HOME
      : join(homedir(), '.cache');
  return join(cacheHome, 'codify', 'python-probes.json');
}

/**
 * What importing modules and asking torch about CUDA found, per interpreter path and
 * fingerprint (python-fingerprint.ts: binary, version, import folders and their modification
 * times), kept between runs of `codify doctor`.
 */
export class PythonProbeCache {
  private changed = false;

  private constructor(
    readonly file: string,
    private readonly entries: Record<string, CachedProbes>,
  ) {}

  /** Reads the cache; a missing or unreadable file is an empty cache. */
  static async open(file: string): Promise<PythonProbeCache> {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      const entries =
        typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? (parsed as Record<string, CachedProbes>)
          : {};
      return new PythonProbeCache(file, entries);
    } catch {
      return new PythonProbeCache(file, {});
    }
  }

  modules(
    path: string,
    fingerprint: string,
    names: readonly string[],
  ): Record<string, boolean> | undefined {
    const entry = this.current(path, fingerprint);
    if (entry === undefined || !names.every((name) => name in entry.modules)) return undefined;
    return Object.fromEntries(names.map((name) => [name, entry.modules[name] === true]));
  }

  storeModules(path: string, fingerprint: string, modules: Record<string, boolean>): void {
    const entry = this.entryFor(path, fingerprint);
    const merged = { ...entry.modules, ...modules };
    if (JSON.stringify(merged) === JSON.stringify(entry.modules)) return;
    entry.modules = merged;
    this.changed = true;
  }

  torchCuda(path: string, fingerprint: string, devices: string): TorchCudaProbe | undefined {
    return this.current(path, fingerprint)?.torchCuda[devices];
  }

  storeTorchCuda(path: string, fingerprint: string, devices: string, probe: TorchCudaProbe): void {
    const entry = this.entryFor(path, fingerprint);
    if (JSON.stringify(entry.torchCuda[devices]) === JSON.stringify(probe)) return;
    entry.torchCuda[devices] = probe;
    this.changed = true;
  }

  /** Writes the cache when something was added; a cache that cannot be written is skipped. */
  async save(): Promise<void> {
    if (!this.changed) return;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(this.entries, null, 1)}\n`);
      await rename(temporary, this.file);
      this.changed = false;
    } catch {
      // a read-only home only costs the next run its speed
    }
  }

  private current(path: string, fingerprint: string): CachedProbes | undefined {
    const entry = this.entries[path];
    return entry?.fingerprint === fingerprint ? entry : undefined;
  }

  private entryFor(path: string, fingerprint: string): CachedProbes {
    const known = this.current(path, fingerprint);
    if (known !== undefined) return known;
    const fresh: CachedProbes = { fingerprint, modules: {}, torchCuda: {} };
    this.entries[path] = fresh;
    return fresh;
  }
}
