import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ModelCaller } from '../llm/types.js';
import type { RunContext } from '../runs/context.js';
import { probeInterpreter } from '../sandbox/interpreters.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import { condensePaper, designTerms } from './condensed-paper.js';
import { renderConfigYaml } from './config-yaml.js';
import { reproduceScript, writeReadme } from './environment.js';
import { analyzeFiles, generateFiles } from './generation.js';
import { commitStage, initRepository } from './git.js';
import { MeteredCaller } from './metered-caller.js';
import { planRepository, renderDesign, type Plan } from './planning.js';
import { renderReport, sumStages, type RepoReport } from './report.js';
import { runRepositoryTests, type TestRun } from './repository-tests.js';
import {
  devRequirementsFile,
  isTestFile,
  requirementLine,
  requirementsFile,
  splitRequirements,
} from './requirements.js';
import { verifyRepository, type Repairer, type VerifyOutcome } from './verify.js';
import { prepareRepositoryEnvironment, type RepositoryEnvironment } from './virtual-environment.js';

export interface PaperToRepoOptions {
  /** The paper as prompt text (full, or fitted to the context with summaries). */
  paperText: string;
  /** The full text, for checking config quotes; defaults to paperText. */
  fullPaperText?: string;
  title: string;
  models: ModelCaller;
  run: RunContext;
  sandbox: Sandbox;
  /** The interpreter for syntax checks (any Python 3 will do). */
  interpreter: string;
  /**
   * The interpreter for the smoke run, chosen for the packages the code needs to run (not
   * its tests'): the best candidate and the modules it lacks, or why none can run at all.
   * Default: `interpreter`, assumed to lack nothing.
   */
  chooseInterpreter?: (
    requires: string[],
  ) => Promise<{ path: string; missing: string[] } | { problem: string }>;
  /**
   * Where the interpreter lacks run requirements, make a virtual environment in the run
   * folder and pip install them (on the host, outside the sandbox). Default true.
   */
  installMissing?: boolean;
  /** Environment variables for that pip install (an index, a proxy, a wheel folder). */
  pipEnvironment?: Record<string, string | undefined>;
  limits: SandboxLimits;
  /** Where the repository is written; default `<run>/repo`. Must be absent or empty. */
  outDir?: string;
  selfRefine: boolean;
  /** Characters of earlier files given in full before switching to interfaces. */
  earlierBudgetChars?: number;
  /** Agent steps the repair may use; 0 turns repair off. */
  repairBudgetSteps: number;
  /** Builds the repairer for a repository; the research agent in practice. */
  makeRepairer?: (repoDir: string, plan: Plan, interpreter: string) => Repairer;
  gpu?: boolean;
  /**
   * Let the smoke run, the tests and repair reach the network (`--network`), e.g. to fetch
   * data; default false: the smoke configuration must run offline.
   */
  network?: boolean;
  /** Stop before the smoke run (the repository is still written and committed). */
  skipVerify?: boolean;
}

export interface PaperToRepoResult {
  repository: string;
  report: RepoReport;
  reportPath: string;
}

/** A repository folder that already holds files would be overwritten: refuse early. */
export function checkOutputFolder(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `${dir} is a file; give --out a new or empty folder`;
  const entries = readdirSync(dir);
  return entries.length === 0
    ? undefined
    : `${dir} already holds ${entries.length} entries; choose an empty or new folder with --out`;
}

/** PaperCoder's stages — plan, analyze, generate — then environment and verify, one commit each. */
export async function paperToRepository(options: PaperToRepoOptions): Promise<PaperToRepoResult> {
  const { run } = options;
  const repoDir = resolve(options.outDir ?? join(run.dir, 'repo'));
  const problem = checkOutputFolder(repoDir);
  if (problem !== undefined) throw new Error(problem);
  mkdirSync(repoDir, { recursive: true });
  const git = await initRepository(repoDir);
  if (!git.ok)
    run.emit({
      type: 'log',
      level: 'warn',
      message: `git unavailable, no stage commits: ${git.reason}`,
    });
  const models = new MeteredCaller(options.models);
  const stages: RepoReport['stages'] = [];
  const interfacesUsed: Record<string, string[]> = {};
  const write = (path: string, content: string, kind: string) => {
    const target = join(repoDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    run.emit({ type: 'artifact-write', path: target, kind });
  };
  const stage = async <T>(name: string, work: () => Promise<T>, message: string): Promise<T> => {
    models.stage = name;
    const started = Date.now();
    run.emit({ type: 'stage-start', stage: name });
    try {
      const value = await work();
      const commit = git.ok ? await commitStage(repoDir, `${name}: ${message}`) : undefined;
      const usage = models.stages.get(name) ?? sumStages([]);
      stages.push({ stage: name, durationMs: Date.now() - started, commit, ...usage });
      run.emit({
        type: 'stage-end',
        stage: name,
        ok: true,
        detail: commit ? `commit ${commit}` : undefined,
      });
      return value;
    } catch (error) {
      run.emit({
        type: 'stage-end',
        stage: name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  };
  const fullText = options.fullPaperText ?? options.paperText;

  const plan = await stage(
    'plan',
    async () => {
      const result = await planRepository(models, options.paperText, {
        selfRefine: options.selfRefine,
        quoteSource: fullText,
      });
      write('docs/plan.md', `${result.overall}\n`, 'plan');
      write('docs/design.md', `${renderDesign(result)}\n`, 'design');
      write('config.yaml', renderConfigYaml(result.config), 'config');
      write('config_smoke.yaml', renderConfigYaml(result.config, true), 'config');
      return result;
    },
    `plan, design and config.yaml${options.selfRefine ? ' (self-refined)' : ''}`,
  );
  const design = renderDesign(plan);
  const configs = {
    config: renderConfigYaml(plan.config),
    smokeConfig: renderConfigYaml(plan.config, true),
  };
  // After planning the paper is condensed: what the code is built from stays whole, the
  // rest (introduction, related work, results…) shrinks to its key sentences.
  const condensed = condensePaper(options.paperText, {
    quotes: plan.config.entries.map((entry) => entry.evidence),
    design,
    terms: designTerms(
      design,
      plan.config.entries.map((entry) => entry.key),
    ),
  });
  writeFileSync(join(run.dir, 'paper-condensed.md'), condensed.text);
  if (condensed.condensed.length > 0)
    run.emit({
      type: 'log',
      level: 'info',
      message: `paper condensed for the later stages: ${options.paperText.length} → ${condensed.text.length} characters (condensed: ${condensed.condensed.join(', ')})`,
    });
  const analyses = await stage(
    'analyze',
    async () => {
      const result = await analyzeFiles(models, plan, condensed.text, design, configs);
      for (const [path, text] of result)
        write(`docs/analysis/${path.replace(/\.py$/, '')}.md`, `${text}\n`, 'analysis');
      return result;
    },
    'logic analysis per file',
  );
  await stage(
    'generate',
    async () => {
      const files = await generateFiles(models, plan, design, configs, analyses, {
        interpreter: options.interpreter,
        earlierBudgetChars: options.earlierBudgetChars ?? 24_000,
        onFile: (file, view) => {
          write(file.path, file.content, 'code');
          if (view.asInterface.length > 0) interfacesUsed[file.path] = view.asInterface;
        },
      });
      for (const path of plan.logic.order) {
        if (path.endsWith('.py') && !files.some((file) => file.path === path)) {
          throw new Error(`generation did not produce ${path}`);
        }
      }
    },
    `${plan.logic.order.length} files in dependency order`,
  );
  const requirements = splitRequirements(plan);
  await stage(
    'environment',
    async () => {
      write('requirements.txt', requirementsFile(requirements.run), 'environment');
      if (requirements.test.length > 0)
        write('requirements-dev.txt', devRequirementsFile(requirements.test), 'environment');
      write('reproduce.sh', reproduceScript(plan), 'environment');
      write('README.md', await writeReadme(models, plan, design, options.title, configs), 'readme');
    },
    'requirements.txt, reproduce.sh and README',
  );
  let verify: VerifyOutcome | { ok: false; summary: string; skipped: true };
  let environment: RepositoryEnvironment | undefined;
  let tests: TestRun | undefined;
  const requires = requirements.run.map((pkg) => pkg.importName);
  const runner = options.skipVerify
    ? undefined
    : ((await options.chooseInterpreter?.(requires)) ?? {
        path: options.interpreter,
        missing: [],
      });
  if (runner === undefined) {
    verify = { ok: false, summary: 'verify was skipped (--no-verify)', skipped: true };
  } else if ('problem' in runner) {
    verify = { ok: false, summary: `no smoke run: ${runner.problem}`, skipped: true };
  } else {
    let smokeInterpreter = runner.path;
    const testFiles = plan.logic.order.filter(
      (path) => isTestFile(path) && existsSync(join(repoDir, path)),
    );
    // What the tests lack is installed too, but never decides the interpreter.
    const testMissing =
      testFiles.length > 0 && requirements.test.length > 0
        ? await missingModules(
            runner.path,
            requirements.test.map((pkg) => pkg.importName),
          )
        : [];
    const wanted = {
      run: requirements.run
        .filter((pkg) => runner.missing.includes(pkg.importName))
        .map(requirementLine),
      test: requirements.test
        .filter((pkg) => testMissing.includes(pkg.importName))
        .map(requirementLine),
    };
    if (wanted.run.length + wanted.test.length > 0 && options.installMissing !== false) {
      environment = await installRequirements(run, runner.path, options.pipEnvironment, wanted);
      smokeInterpreter = environment.interpreter;
    }
    verify = await stage(
      'verify',
      async () => {
        const outcome = await verifyRepository({
          sandbox: options.sandbox,
          repoDir,
          entryPoint: plan.logic.entryPoint,
          interpreter: smokeInterpreter,
          limits: options.limits,
          outputsDir: join(run.dir, 'outputs'),
          gpu: options.gpu,
          network: options.network ?? false,
          repairBudgetSteps: options.repairBudgetSteps,
          repair: options.makeRepairer?.(repoDir, plan, smokeInterpreter),
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
        if (testFiles.length > 0) {
          tests = await runRepositoryTests({
            sandbox: options.sandbox,
            repoDir,
            files: testFiles,
            interpreter: smokeInterpreter,
            limits: options.limits,
            outputPath: join(run.dir, 'outputs', 'tests.txt'),
            gpu: options.gpu,
            network: options.network ?? false,
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
        }
        return outcome;
      },
      'repairs after the smoke run',
    );
  }
  const files = listFiles(repoDir);
  const report: RepoReport = {
    title: options.title,
    repository: repoDir,
    entryPoint: plan.logic.entryPoint,
    files,
    stages,
    totals: sumStages(stages),
    verify,
    droppedConfigKeys: plan.dropped,
    interfacesUsed,
    ...(environment === undefined ? {} : { environment }),
    ...(tests === undefined ? {} : { tests }),
    paper: {
      characters: options.paperText.length,
      condensedCharacters: condensed.text.length,
      condensed: condensed.condensed,
    },
  };
  const reportPath = join(run.dir, 'report.md');
  writeFileSync(join(run.dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(reportPath, renderReport(report));
  writeFileSync(join(run.dir, 'plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
  return { repository: repoDir, report, reportPath };
}

/** The install step: a virtual environment with what the interpreter lacks, announced as a stage. */
async function installRequirements(
  run: RunContext,
  base: string,
  pipEnvironment: Record<string, string | undefined> | undefined,
  wanted: { run: string[]; test: string[] },
): Promise<RepositoryEnvironment> {
  const all = [...wanted.run, ...wanted.test];
  run.emit({ type: 'stage-start', stage: 'install', detail: `pip install ${all.join(' ')}` });
  const environment = await prepareRepositoryEnvironment({
    base,
    dir: join(run.dir, 'venv'),
    requirements: wanted.run,
    testRequirements: wanted.test,
    ...(pipEnvironment === undefined ? {} : { pipEnvironment }),
  });
  const failed = [
    ...(environment.install?.ok === false ? wanted.run : []),
    ...(environment.testInstall?.ok === false ? wanted.test : []),
  ];
  const ok = environment.venv !== undefined && failed.length === 0;
  const detail = ok
    ? `installed ${all.join(', ')} into ${environment.venv ?? ''}`
    : environment.venv === undefined
      ? `no virtual environment (${environment.create.outputTail.split('\n').at(-1) ?? ''}); the smoke run uses ${base} as it is`
      : `pip could not install ${failed.join(', ')}; the smoke run and tests go ahead and their outcome decides`;
  run.emit({ type: 'stage-end', stage: 'install', ok, detail });
  if (!ok) run.emit({ type: 'log', level: 'warn', message: detail });
  return environment;
}

/** Which of `modules` the interpreter cannot import; none when it cannot be probed. */
async function missingModules(interpreter: string, modules: string[]): Promise<string[]> {
  const probe = await probeInterpreter(interpreter, modules).catch(() => undefined);
  return probe === undefined ? [] : modules.filter((name) => probe.modules[name] !== true);
}

function listFiles(root: string, prefix = ''): { path: string; lines: number }[] {
  const found: { path: string; lines: number }[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === '__pycache__') continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listFiles(root, path));
    else found.push({ path, lines: lineCount(join(root, path)) });
  }
  return found.sort((first, second) => first.path.localeCompare(second.path));
}

function lineCount(path: string): number {
  try {
    const text = readFileSync(path, 'utf8');
    return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  } catch {
    return 0;
  }
}
