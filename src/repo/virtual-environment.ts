import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { throwIfStopped } from '../errors/run-stopped.js';
import {
  inheritBaseEnvironment,
  installedPackages,
  writeConstraints,
} from './installed-packages.js';
import { conflictReason, isResolutionConflict, type PipConflict } from './pip-conflict.js';

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
  /**
   * The constraints file every install ran under: each package the interpreter provides,
   * pinned at its installed version (for the test install, what the run install added
   * too). Absent when they could not be listed.
   */
  constraints?: { path: string; pinned: number };
  /**
   * Requirements left out because no version of them fits the pinned packages (the rest
   * were installed without them).
   */
  conflicts?: PipConflict[];
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
  const constraints = await pinInstalled(options.base, python, options.dir);
  const pipInstall = (requirements: string[], extra: string[] = []) =>
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
        ...(constraints === undefined ? [] : ['--constraint', constraints.path]),
        ...extra,
        ...requirements,
      ],
      options.installTimeoutMs ?? 600_000,
      options.pipEnvironment,
      options.signal,
    );
  const run =
    options.requirements.length > 0
      ? await installCompatible(pipInstall, options.requirements, options.signal)
      : undefined;
  // What the run install added is pinned too: the tests' packages must not replace it.
  if (run !== undefined && constraints !== undefined && testRequirements.length > 0)
    constraints.pinned = await pinAgain(python, constraints.path, constraints.pinned);
  const tests =
    testRequirements.length > 0
      ? await installCompatible(pipInstall, testRequirements, options.signal)
      : undefined;
  const conflicts = [...(run?.conflicts ?? []), ...(tests?.conflicts ?? [])];
  throwIfStopped(options.signal);
  return {
    interpreter: python,
    venv: options.dir,
    create,
    ...(run === undefined ? {} : { install: run.outcome }),
    ...(tests === undefined ? {} : { testInstall: tests.outcome }),
    requirements: options.requirements,
    testRequirements,
    ...(constraints === undefined ? {} : { constraints }),
    ...(conflicts.length === 0 ? {} : { conflicts }),
  };
}

/**
 * The interpreter's own packages made visible to the environment and written as pip
 * constraints, so that no install replaces one (NumPy 2 under a torch built for NumPy 1).
 * Undefined when they cannot be listed: pip then runs without constraints, as before.
 */
async function pinInstalled(
  base: string,
  python: string,
  dir: string,
): Promise<{ path: string; pinned: number } | undefined> {
  // Without its base's packages the environment still works (as before); pins still hold.
  await inheritBaseEnvironment(base, python).catch(() => undefined);
  try {
    const path = join(dir, 'constraints.txt');
    return { path, pinned: writeConstraints(path, await installedPackages(python)) };
  } catch {
    return undefined;
  }
}

/** The constraints rewritten with the environment's own packages; the old count if that fails. */
async function pinAgain(python: string, path: string, pinned: number): Promise<number> {
  try {
    return writeConstraints(path, await installedPackages(python, { own: true }));
  } catch {
    return pinned;
  }
}

type PipInstall = (requirements: string[], extra?: string[]) => Promise<CommandOutcome>;

/**
 * Installs the requirements under the constraints. pip itself picks an older version of a
 * requirement when the newest would need a pinned package replaced; when one cannot be met
 * at all, each is tried alone (`--dry-run`) to find which, and the rest are installed
 * without them. A failure of another kind (no network) is returned as it is.
 */
async function installCompatible(
  pipInstall: PipInstall,
  requirements: string[],
  signal: AbortSignal | undefined,
): Promise<{ outcome: CommandOutcome; conflicts: PipConflict[] }> {
  const together = await pipInstall(requirements);
  if (together.ok || !isResolutionConflict(together.outputTail)) {
    return { outcome: together, conflicts: [] };
  }
  if (requirements.length === 1) {
    const [requirement = ''] = requirements;
    return {
      outcome: together,
      conflicts: [{ requirement, reason: conflictReason(together.outputTail) }],
    };
  }
  const conflicts: PipConflict[] = [];
  const compatible: string[] = [];
  for (const requirement of requirements) {
    throwIfStopped(signal);
    const alone = await pipInstall([requirement], ['--dry-run']);
    if (!alone.ok && isResolutionConflict(alone.outputTail))
      conflicts.push({ requirement, reason: conflictReason(alone.outputTail) });
    else compatible.push(requirement);
  }
  if (compatible.length === 0 || conflicts.length === 0) return { outcome: together, conflicts };
  return { outcome: await pipInstall(compatible), conflicts };
}
