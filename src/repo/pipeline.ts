import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ModelCaller } from '../llm/types.js';
import type { RunContext } from '../runs/context.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import { renderConfigYaml } from './config-yaml.js';
import { reproduceScript, requirementsText, writeReadme } from './environment.js';
import { analyzeFiles, generateFiles } from './generation.js';
import { commitStage, initRepository } from './git.js';
import { MeteredCaller } from './metered-caller.js';
import { planRepository, renderDesign, type Plan } from './planning.js';
import { renderReport, sumStages, type RepoReport } from './report.js';
import { verifyRepository, type Repairer, type VerifyOutcome } from './verify.js';

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
   * The interpreter for the smoke run, chosen for the logic design's packages; a string is
   * the reason none fits. Default: `interpreter`.
   */
  chooseInterpreter?: (requires: string[]) => Promise<{ path: string } | { problem: string }>;
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
  const analyses = await stage(
    'analyze',
    async () => {
      const result = await analyzeFiles(models, plan, options.paperText, design);
      for (const [path, text] of result)
        write(`docs/analysis/${path.replace(/\.py$/, '')}.md`, `${text}\n`, 'analysis');
      return result;
    },
    'logic analysis per file',
  );
  await stage(
    'generate',
    async () => {
      const files = await generateFiles(
        models,
        plan,
        design,
        renderConfigYaml(plan.config),
        analyses,
        {
          interpreter: options.interpreter,
          earlierBudgetChars: options.earlierBudgetChars ?? 24_000,
          onFile: (file, view) => {
            write(file.path, file.content, 'code');
            if (view.asInterface.length > 0) interfacesUsed[file.path] = view.asInterface;
          },
        },
      );
      for (const path of plan.logic.order) {
        if (path.endsWith('.py') && !files.some((file) => file.path === path)) {
          throw new Error(`generation did not produce ${path}`);
        }
      }
    },
    `${plan.logic.order.length} files in dependency order`,
  );
  await stage(
    'environment',
    async () => {
      write('requirements.txt', requirementsText(plan), 'environment');
      write('reproduce.sh', reproduceScript(plan), 'environment');
      write('README.md', await writeReadme(models, plan, design, options.title), 'readme');
    },
    'requirements.txt, reproduce.sh and README',
  );
  let verify: VerifyOutcome | { ok: false; summary: string; skipped: true };
  const requires = plan.logic.requiredPackages.map((pkg) => pkg.importName);
  const runner = options.skipVerify
    ? undefined
    : ((await options.chooseInterpreter?.(requires)) ?? { path: options.interpreter });
  if (runner === undefined) {
    verify = { ok: false, summary: 'verify was skipped (--no-verify)', skipped: true };
  } else if ('problem' in runner) {
    verify = { ok: false, summary: `no smoke run: ${runner.problem}`, skipped: true };
  } else {
    const smokeInterpreter = runner.path;
    verify = await stage(
      'verify',
      () =>
        verifyRepository({
          sandbox: options.sandbox,
          repoDir,
          entryPoint: plan.logic.entryPoint,
          interpreter: smokeInterpreter,
          limits: options.limits,
          outputsDir: join(run.dir, 'outputs'),
          gpu: options.gpu,
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
        }),
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
  };
  const reportPath = join(run.dir, 'report.md');
  writeFileSync(join(run.dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(reportPath, renderReport(report));
  writeFileSync(join(run.dir, 'plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
  return { repository: repoDir, report, reportPath };
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
