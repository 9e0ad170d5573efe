import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { throwIfStopped } from '../errors/run-stopped.js';

export interface CommandOutcome {
  ok: boolean;
  command: string;
  /** The last lines of stdout and stderr together. */
  outputTail: string;
}

export interface RepositoryEnvironment {
  /** The interpreter the smoke run uses: the environment's own python, or the base one. */
  interpreter: string;
  /** The virtual environment's folder, when one was made. */
  venv?: string;
  create: CommandOutcome;
  /** The pip install of the missing run requirements; absent when none were to be installed. */
  install?: CommandOutcome;
  /**
   * The pip install of what the tests lack (pytest and the like), kept apart so that a test
   * package that cannot be had never keeps the code's own requirements out.
   */
  testInstall?: CommandOutcome;
  /** The run requirements that were to be installed. */
  requirements: string[];
  testRequirements: string[];
}

const tailOf = (text: string, characters = 2000) =>
  text.length > characters ? `…${text.slice(-characters)}` : text;

function runCommand(
  command: string,
  args: string[],
  timeoutMs: number,
  environment: Record<string, string | undefined> = {},
  signal?: AbortSignal,
): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        ...(signal === undefined ? {} : { signal }),
        env: {
          ...process.env,
          PIP_DISABLE_PIP_VERSION_CHECK: '1',
          PYTHONDONTWRITEBYTECODE: '1',
          ...environment,
        },
      },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim();
        const reason =
          error === null
            ? ''
            : error.killed
              ? `\n(stopped after ${Math.round(timeoutMs / 1000)} s)`
              : `\n(${error.message.split('\n')[0] ?? ''})`;
        resolve({
          ok: error === null,
          command: [command, ...args].join(' '),
          outputTail: tailOf(`${output}${reason}`.trim()),
        });
      },
    );
  });
}

export interface EnvironmentOptions {
  /** The interpreter to build on; its packages stay visible (--system-site-packages). */
  base: string;
  /** The folder to create the environment in (inside the run folder). */
  dir: string;
  /** pip requirement lines for what the base interpreter lacks to run the code. */
  requirements: string[];
  /** pip requirement lines for what it lacks to run the tests. */
  testRequirements?: string[];
  /** Time limit of the install, in ms (default 10 minutes). */
  installTimeoutMs?: number;
  /** Environment variables for pip on top of codify's own (an index, a proxy, a wheel folder). */
  pipEnvironment?: Record<string, string | undefined>;
  /** Ctrl-C or SIGTERM: the venv creation or pip install in flight is killed. */
  signal?: AbortSignal;
}

/**
 * A virtual environment for the repository: the base interpreter's packages plus a pip
 * install of what it lacks. The install runs on the host, outside the sandbox, because it
 * is the one step that needs the network; the generated code never runs here. When the
 * environment cannot be made the base interpreter is used, and when the install fails
 * the environment is used as it is: the smoke run and its repair decide what follows.
 */
export async function prepareRepositoryEnvironment(
  options: EnvironmentOptions,
): Promise<RepositoryEnvironment> {
  const create = await runCommand(
    options.base,
    ['-m', 'venv', '--system-site-packages', options.dir],
    120_000,
    {},
    options.signal,
  );
  throwIfStopped(options.signal);
  const python = join(options.dir, 'bin', 'python');
  const testRequirements = options.testRequirements ?? [];
  if (!create.ok || !existsSync(python)) {
    return {
      interpreter: options.base,
      create: { ...create, ok: false },
      requirements: options.requirements,
      testRequirements,
    };
  }
  const pipInstall = (requirements: string[]) =>
    runCommand(
      python,
      [
        '-m',
        'pip',
        'install',
        '--disable-pip-version-check',
        '--no-input',
        // An offline machine should fail in seconds, not after pip's default five retries.
        '--retries',
        '1',
        '--timeout',
        '15',
        ...requirements,
      ],
      options.installTimeoutMs ?? 600_000,
      options.pipEnvironment,
      options.signal,
    );
  const install =
    options.requirements.length > 0 ? await pipInstall(options.requirements) : undefined;
  const testInstall = testRequirements.length > 0 ? await pipInstall(testRequirements) : undefined;
  throwIfStopped(options.signal);
  return {
    interpreter: python,
    venv: options.dir,
    create,
    ...(install === undefined ? {} : { install }),
    ...(testInstall === undefined ? {} : { testInstall }),
    requirements: options.requirements,
    testRequirements,
  };
}
