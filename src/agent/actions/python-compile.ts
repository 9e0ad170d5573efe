import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export type CompileResult = { ok: true } | { ok: false; error: string };

/**
 * Byte-compiles Python source with the task's interpreter (`-m py_compile`) in a private
 * temporary folder. Compiling runs none of the code, so it needs no sandbox.
 */
export async function compilePython(
  interpreter: string,
  source: string,
  fileName: string,
): Promise<CompileResult> {
  const directory = await mkdtemp(join(tmpdir(), 'codify-compile-'));
  const file = join(directory, basename(fileName));
  try {
    await writeFile(file, source, 'utf8');
    return await new Promise<CompileResult>((resolve) => {
      execFile(
        interpreter,
        ['-m', 'py_compile', file],
        {
          timeout: 30_000,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' },
        },
        (error, _stdout, stderr) => {
          if (error === null) {
            resolve({ ok: true });
            return;
          }
          const text = (stderr || error.message)
            .split(directory + '/')
            .join('')
            .trim();
          resolve({ ok: false, error: text });
        },
      );
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
