import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';

/**
 * Which Python a path runs, found without importing anything (a few tens of milliseconds,
 * against seconds for importing torch): its version, the real binary and its import path.
 */
export interface PythonIdentity {
  path: string;
  version: string;
  /** sys.executable, resolved: the real binary behind a pyenv shim or a symlink. */
  executable: string;
  /** sys.path: where its modules come from. */
  searchPath: string[];
}

const identityScript =
  'import json, sys; print(json.dumps([sys.version.split()[0], sys.executable, sys.path]))';

export function identifyPython(path: string, timeoutMs = 30_000): Promise<PythonIdentity> {
  return new Promise((resolve, reject) => {
    execFile(
      path,
      ['-c', identityScript],
      { timeout: timeoutMs, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
      (error, stdout) => {
        if (error) {
          reject(new Error(`${path} could not run: ${error.message.split('\n')[0] ?? ''}`));
          return;
        }
        try {
          const [version, executable, searchPath] = JSON.parse(
            stdout.trim().split('\n').at(-1) ?? '',
          ) as [string, string, string[]];
          realpath(executable || path)
            .catch(() => executable || path)
            .then((resolved) => resolve({ path, version, executable: resolved, searchPath }))
            .catch(reject);
        } catch {
          reject(new Error(`${path} printed something unexpected when probed`));
        }
      },
    );
  });
}

/**
 * Changes whenever what the interpreter can import may have changed: the binary replaced, or
 * a package installed in or removed from a folder on its import path (which changes that
 * folder's modification time).
 */
export async function fingerprintPython(identity: PythonIdentity): Promise<string> {
  const binary = await stat(identity.executable);
  const folders = await Promise.all(
    identity.searchPath
      .filter((folder) => folder !== '')
      .map(async (folder) => {
        const found = await stat(folder).catch(() => undefined);
        return `${folder}@${found === undefined ? 'absent' : String(found.mtimeMs)}`;
      }),
  );
  return JSON.stringify([
    identity.executable,
    identity.version,
    binary.mtimeMs,
    binary.size,
    ...folders,
  ]);
}
