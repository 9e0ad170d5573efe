import { join } from 'node:path';
import { throwIfStopped } from '../errors/run-stopped.js';
import { probeInterpreter } from '../sandbox/interpreters.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';

export interface TestRun {
  runner: 'pytest' | 'unittest';
  /** The command as run inside the sandbox, relative to the repository. */
  command: string;
  files: string[];
  ok: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Counts read from the runner's summary line, when it printed one. */
  passed?: number;
  failed?: number;
  errors?: number;
  outputTail: string;
  outputPath: string;
  /** Why an exit code of 0 still does not count as passing, when it does not. */
  note?: string;
}

const count = (text: string, pattern: RegExp): number | undefined => {
  const match = pattern.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
};

/** Passed, failed and error counts from pytest's last summary line or unittest's footer. */
export function testCounts(
  runner: TestRun['runner'],
  output: string,
): Pick<TestRun, 'passed' | 'failed' | 'errors'> {
  if (runner === 'pytest') {
    const summary =
      output
        .split('\n')
        .reverse()
        .find((line) => /\d+ (passed|failed|error)/.test(line)) ?? '';
    return {
      passed: count(summary, /(\d+) passed/) ?? 0,
      failed: count(summary, /(\d+) failed/) ?? 0,
      errors: count(summary, /(\d+) errors?/) ?? 0,
    };
  }
  const ran = count(output, /^Ran (\d+) tests?/m);
  if (ran === undefined) return {};
  const failed = count(output, /FAILED \([^)]*failures=(\d+)/) ?? 0;
  const errors = count(output, /FAILED \([^)]*errors=(\d+)/) ?? 0;
  return { passed: ran - failed - errors, failed, errors };
}

export interface RunTestsOptions {
  sandbox: Sandbox;
  repoDir: string;
  files: string[];
  interpreter: string;
  limits: SandboxLimits;
  outputPath: string;
  gpu?: boolean;
  network?: boolean;
  signal?: AbortSignal;
}

/**
 * Runs the repository's own tests in the sandbox (offline unless asked): pytest when the
 * interpreter imports it, otherwise unittest on the same files as modules.
 */
export async function runRepositoryTests(options: RunTestsOptions): Promise<TestRun> {
  const probe = await probeInterpreter(options.interpreter, ['pytest']).catch(() => undefined);
  const runner: TestRun['runner'] = probe?.modules.pytest === true ? 'pytest' : 'unittest';
  // `-m` runs the runner as Python itself would; no cache folder is left in the repository.
  const args =
    runner === 'pytest'
      ? ['pytest', '-q', '-p', 'no:cacheprovider', ...options.files]
      : [
          'unittest',
          '-v',
          ...options.files.map((file) => file.replace(/\.py$/, '').split('/').join('.')),
        ];
  const result = await options.sandbox.run({
    workspace: options.repoDir,
    readOnlyPaths: [join(options.repoDir, '.git')],
    interpreter: options.interpreter,
    script: '-m',
    args,
    limits: options.limits,
    network: options.network ?? false,
    gpu: options.gpu ?? false,
    trace: false,
    outputPath: options.outputPath,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  throwIfStopped(options.signal);
  const output = result.output;
  const counts = testCounts(runner, output);
  // unittest exits 0 having run nothing when the files hold pytest-style test functions.
  const noneRan =
    runner === 'unittest' &&
    (counts.passed ?? 0) + (counts.failed ?? 0) + (counts.errors ?? 0) === 0;
  return {
    runner,
    command: `python -m ${args.join(' ')}`,
    files: options.files,
    ok: result.exitCode === 0 && !result.timedOut && !noneRan,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    ...counts,
    ...(noneRan
      ? {
          note: 'unittest found no tests: the files are likely written for pytest, which this interpreter does not import',
        }
      : {}),
    outputTail: output.length > 3000 ? `…${output.slice(-3000)}` : output,
    outputPath: result.outputPath,
  };
}
