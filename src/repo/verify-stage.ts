import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { probeInterpreter } from '../sandbox/interpreters.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Plan } from './planning.js';
import { committedStage, type RepoWork } from './repo-work.js';
import { runRepositoryTests, type TestRun } from './repository-tests.js';
import {
  isTestFile,
  requirementLine,
  splitRequirements,
  type RequiredPackage,
} from './requirements.js';
import { describeConflict } from './pip-conflict.js';
import { RunOutputs } from './run-outputs.js';
import { verifyRepository, type Repairer, type VerifyOutcome } from './verify.js';
import { prepareRepositoryEnvironment, type RepositoryEnvironment } from './virtual-environment.js';

export type VerifyResult = VerifyOutcome | { ok: false; summary: string; skipped: true };

/** What checking the repository found: the smoke run, the environment made for it, the tests. */
export interface Checked {
  verify: VerifyResult;
  environment?: RepositoryEnvironment;
  tests?: TestRun;
}

const skipped = (summary: string): Checked => ({ verify: { ok: false, summary, skipped: true } });

/**
 * After the repository is written: choose the interpreter for what the code needs, install
 * what it lacks (the install stage), then the smoke run with repair and the repository's own
 * tests (the verify stage).
 */
export async function checkRepository(work: RepoWork, plan: Plan): Promise<Checked> {
  if (work.options.skipVerify === true) return skipped('verify was skipped (--no-verify)');
  const requirements = splitRequirements(plan);
  const runner = (await work.options.chooseInterpreter?.(
    requirements.run.map((pkg) => pkg.importName),
  )) ?? { path: work.options.interpreter, missing: [] };
  if ('problem' in runner) return skipped(`no smoke run: ${runner.problem}`);
  const testFiles = plan.logic.order.filter(
    (path) => isTestFile(path) && existsSync(join(work.repoDir, path)),
  );
  const wanted = await wantedInstalls(runner, requirements, testFiles.length > 0);
  const environment =
    wanted.run.length + wanted.test.length > 0 && work.options.installMissing !== false
      ? await installStage(work, runner.path, wanted)
      : undefined;
  const conflicts = (environment?.conflicts ?? []).map((conflict) =>
    describeConflict(conflict, runner.path),
  );
  const checked = await committedStage(work, 'verify', 'repairs after the smoke run', () =>
    verifyStage(work, plan, environment?.interpreter ?? runner.path, testFiles, conflicts),
  );
  return environment === undefined ? checked : { ...checked, environment };
}

/** The requirement lines the chosen interpreter lacks: for the code, and for its tests. */
async function wantedInstalls(
  runner: { path: string; missing: string[] },
  requirements: { run: RequiredPackage[]; test: RequiredPackage[] },
  hasTests: boolean,
): Promise<{ run: string[]; test: string[] }> {
  // What the tests lack is installed too, but never decides the interpreter.
  const testMissing =
    hasTests && requirements.test.length > 0
      ? await missingModules(
          runner.path,
          requirements.test.map((pkg) => pkg.importName),
        )
      : [];
  return {
    run: requirements.run
      .filter((pkg) => runner.missing.includes(pkg.importName))
      .map(requirementLine),
    test: requirements.test
      .filter((pkg) => testMissing.includes(pkg.importName))
      .map(requirementLine),
  };
}

/** Which of `modules` the interpreter cannot import; none when it cannot be probed. */
async function missingModules(interpreter: string, modules: string[]): Promise<string[]> {
  const probe = await probeInterpreter(interpreter, modules).catch(() => undefined);
  return probe === undefined ? [] : modules.filter((name) => probe.modules[name] !== true);
}

/** Whether the environment has every wanted package; the words for the stage and the log. */
function installOutcome(
  environment: RepositoryEnvironment,
  base: string,
  wanted: { run: string[]; test: string[] },
): { ok: boolean; detail: string } {
  const conflicts = environment.conflicts ?? [];
  const conflicted = new Set(conflicts.map((conflict) => conflict.requirement));
  const failed = [
    ...(environment.install?.ok === false ? wanted.run : []),
    ...(environment.testInstall?.ok === false ? wanted.test : []),
  ].filter((requirement) => !conflicted.has(requirement));
  const installed = [...wanted.run, ...wanted.test].filter(
    (requirement) => !conflicted.has(requirement) && !failed.includes(requirement),
  );
  if (environment.venv === undefined)
    return {
      ok: false,
      detail: `no virtual environment (${environment.create.outputTail.split('\n').at(-1) ?? ''}); the smoke run uses ${base} as it is`,
    };
  const problems = [
    ...conflicts.map((conflict) => describeConflict(conflict, base)),
    ...(failed.length > 0
      ? [
          `pip could not install ${failed.join(', ')}; the smoke run and tests go ahead and their outcome decides`,
        ]
      : []),
  ];
  // What went wrong leads: it is what the stage line and the warning are for.
  const done =
    installed.length > 0 ? [`installed ${installed.join(', ')} into ${environment.venv}`] : [];
  return { ok: problems.length === 0, detail: [...problems, ...done].join('; ') };
}

/** The install stage: a virtual environment in the run folder with what the interpreter lacks. */
function installStage(
  work: RepoWork,
  base: string,
  wanted: { run: string[]; test: string[] },
): Promise<RepositoryEnvironment> {
  return work.stages.run(
    'install',
    async () => {
      const environment = await prepareRepositoryEnvironment({
        base,
        dir: join(work.run.dir, 'venv'),
        requirements: wanted.run,
        testRequirements: wanted.test,
        ...(work.options.pipEnvironment === undefined
          ? {}
          : { pipEnvironment: work.options.pipEnvironment }),
        ...(work.options.signal === undefined ? {} : { signal: work.options.signal }),
      });
      const outcome = installOutcome(environment, base, wanted);
      if (!outcome.ok) work.run.emit({ type: 'log', level: 'warn', message: outcome.detail });
      return environment;
    },
    {
      detail: `pip install ${[...wanted.run, ...wanted.test].join(' ')}`,
      describe: (environment) => installOutcome(environment, base, wanted).detail,
    },
  );
}

/**
 * The repair learns of the requirements that could not be installed beside the
 * interpreter's packages with the smoke run's output, so that it works with what is there
 * rather than chase an import error pip cannot fix.
 */
function withConflicts(repair: Repairer, conflicts: string[]): Repairer {
  if (conflicts.length === 0) return repair;
  const note = conflicts.map((conflict) => `Environment: ${conflict}.`).join('\n');
  return (failure, stepsLeft) =>
    repair({ ...failure, outputTail: `${note}\n\n${failure.outputTail}` }, stepsLeft);
}

/** The verify stage: the smoke run, repaired until it runs or the budget ends, then the tests. */
async function verifyStage(
  work: RepoWork,
  plan: Plan,
  interpreter: string,
  testFiles: string[],
  conflicts: string[],
): Promise<{ verify: VerifyOutcome; tests?: TestRun }> {
  const { options, run, repoDir } = work;
  const repairer = options.makeRepairer?.(repoDir, plan, interpreter);
  // The smoke run and the tests are watched for what they write; repair is not.
  const outputs = work.git ? new RunOutputs(repoDir) : undefined;
  const sandbox = outputs?.watch(options.sandbox) ?? options.sandbox;
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const verify = await verifyRepository({
    sandbox,
    repoDir,
    entryPoint: plan.logic.entryPoint,
    interpreter,
    limits: options.limits,
    outputsDir: join(run.dir, 'outputs'),
    gpu: options.gpu,
    network: options.network ?? false,
    repairBudgetSteps: options.repairBudgetSteps,
    ...(repairer === undefined ? {} : { repair: withConflicts(repairer, conflicts) }),
    ...signal,
    onRun: (smoke) =>
      run.emit({
        type: 'execution-end',
        script: plan.logic.entryPoint,
        args: ['--config', 'config_smoke.yaml'],
        exitCode: smoke.exitCode,
        signal: null,
        timedOut: smoke.timedOut,
        durationMs: smoke.durationMs,
        outputPath: smoke.outputPath,
        blocked: smoke.blocked,
      }),
  });
  const tests =
    testFiles.length === 0 ? undefined : await testStep(work, sandbox, interpreter, testFiles);
  const excluded = (await outputs?.exclude()) ?? [];
  if (excluded.length > 0)
    run.emit({
      type: 'log',
      level: 'info',
      message: `kept out of the repository's history (.git/info/exclude), as outputs of the runs: ${excluded.join(', ')}`,
    });
  return tests === undefined ? { verify } : { verify, tests };
}

/** The repository's own tests, after the smoke run. */
async function testStep(
  work: RepoWork,
  sandbox: Sandbox,
  interpreter: string,
  testFiles: string[],
): Promise<TestRun> {
  const { options, run, repoDir } = work;
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const tests = await runRepositoryTests({
    sandbox,
    repoDir,
    files: testFiles,
    interpreter,
    limits: options.limits,
    outputPath: join(run.dir, 'outputs', 'tests.txt'),
    gpu: options.gpu,
    network: options.network ?? false,
    ...signal,
  });
  run.emit({
    type: 'execution-end',
    script: `-m ${tests.runner}`,
    args: testFiles,
    exitCode: tests.exitCode,
    signal: null,
    timedOut: tests.timedOut,
    durationMs: tests.durationMs,
    outputPath: tests.outputPath,
    blocked: [],
  });
  return tests;
}
