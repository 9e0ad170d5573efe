import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const repositoryRoot = resolve(import.meta.dirname, '../..');
export const recordings = join(repositoryRoot, 'examples/recordings');
/** tsx's loader by its absolute URL, so the CLI starts from any working folder. */
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Starts the real CLI from its sources, in the repository folder. */
export function startCodify(args: string[], cwd = repositoryRoot): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', tsx, join(repositoryRoot, 'src/cli/main.ts'), ...args],
    { cwd, env: { ...process.env, CI: 'true' } },
  );
}

/** Runs the CLI to its end (in `cwd`, default the repository) without blocking the test worker. */
export function codify(
  args: string[],
  cwd = repositoryRoot,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = startCodify(args, cwd);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

/** Runs the CLI to its end and gives its output; a non-zero exit rejects with that output. */
export async function codifyOk(args: string[], cwd = repositoryRoot): Promise<string> {
  const { status, output } = await codify(args, cwd);
  if (status !== 0) throw new Error(`codify ${args.join(' ')} exited ${status}:\n${output}`);
  return output;
}
