import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../errors/codify-error.js';
import { signalledCaller } from '../llm/signalled-caller.js';
import { readEvents } from '../runs/read-events.js';
import { Stages } from '../runs/stages.js';
import type { CondensedPaper } from './condensed-paper.js';
import { initRepository, restoreLastCommit } from './git.js';
import type { Plan } from './planning.js';
import { committedStage, type PaperToRepoOptions, type RepoWork } from './repo-work.js';
import { renderReport, type RepoReport } from './report.js';
import { repositoryFiles } from './repository-files.js';
import { stageRows, sumStages } from './stage-table.js';
import { checkRepository, type Checked } from './verify-stage.js';
import { findCodeDefaults } from './code-defaults.js';
import { selfCheckStage, type SelfCheckResult } from './self-check.js';
import {
  condenseForLaterStages,
  environmentStage,
  planStage,
  targetEnvironmentStage,
  writeStage,
  type Generated,
} from './write-stages.js';

export type { PaperToRepoOptions } from './repo-work.js';

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

/**
 * PaperCoder's stages — plan, then analysis and code per file — then environment, install and verify,
 * one commit each. A resumed run returns the stages it finished from their stored results
 * (their files are in their commits) and redoes the rest.
 */
export async function paperToRepository(options: PaperToRepoOptions): Promise<PaperToRepoResult> {
  const work = await openRepository(options);
  const refined = options.selfRefine ? ' (self-refined)' : '';
  const plan = await committedStage(work, 'plan', `plan, design and config.yaml${refined}`, () =>
    planStage(work),
  );
  const condensed = condenseForLaterStages(work, plan);
  const target = await work.stages.run(
    'target-environment',
    () => targetEnvironmentStage(work, plan),
    {
      detail: `Python and the versions of ${plan.logic.requiredPackages.map((pkg) => pkg.name).join(', ') || 'the standard library'}`,
      describe: (found) =>
        `Python ${found.python}; ${found.packages.map((pkg) => `${pkg.name} ${pkg.version ?? 'not installed'}`).join(', ')}`,
    },
  );
  const generated = await committedStage(
    work,
    'generate',
    `analysis and code of ${plan.logic.order.length} files in dependency order`,
    () => writeStage(work, plan, target, condensed.text),
  );
  const selfCheck =
    options.selfCheck === true
      ? await committedStage(
          work,
          'self-check',
          'files rewritten for unmet code requirements',
          () => selfCheckStage(work, plan, condensed.text),
        )
      : undefined;
  await committedStage(work, 'environment', 'requirements.txt, reproduce.sh and README', () =>
    environmentStage(work, plan),
  );
  const checked = await checkRepository(work, plan);
  return writeReport(work, plan, condensed, generated, checked, selfCheck);
}

/**
 * The repository folder as the stages start on it: new and empty for a new run; for a
 * resumed one, as its last stage commit left it, so the stage a kill cut short starts over
 * from where it began.
 */
async function openRepository(options: PaperToRepoOptions): Promise<RepoWork> {
  const { run } = options;
  const repoDir = resolve(options.outDir ?? join(run.dir, 'repo'));
  if (!run.resumed) {
    const problem = checkOutputFolder(repoDir);
    if (problem !== undefined) throw new InputError(problem);
  }
  mkdirSync(repoDir, { recursive: true });
  const git = await initRepository(repoDir);
  if (!git.ok)
    run.emit({
      type: 'log',
      level: 'warn',
      message: `git unavailable, no stage commits: ${git.reason}`,
    });
  else if (run.resumed) await restoreLastCommit(repoDir);
  return {
    options,
    run,
    stages: options.stages ?? new Stages(run, options.signal),
    models: signalledCaller(options.models, options.signal),
    repoDir,
    git: git.ok,
    commits: new Map(),
  };
}

/** The report's file table: source files by lines; binaries apart, by size. */
function sourceAndBinaryFiles(work: RepoWork): Pick<RepoReport, 'files' | 'binaryFiles'> {
  const { files, binaryFiles } = repositoryFiles(work.repoDir, work.git);
  return binaryFiles.length === 0 ? { files } : { files, binaryFiles };
}

/** report.json, report.md and plan.json in the run folder. */
function writeReport(
  work: RepoWork,
  plan: Plan,
  condensed: CondensedPaper,
  generated: Generated,
  checked: Checked,
  selfCheck: SelfCheckResult | undefined,
): PaperToRepoResult {
  const { run, options } = work;
  // The whole log, earlier processes included: the table adds up to the run's totals.
  const stages = stageRows(work.stages.records, readEvents(run.dir).events, work.commits);
  const report: RepoReport = {
    title: options.title,
    repository: work.repoDir,
    entryPoint: plan.logic.entryPoint,
    ...sourceAndBinaryFiles(work),
    stages,
    totals: sumStages(stages),
    verify: checked.verify,
    droppedConfigKeys: plan.dropped,
    implementationChoices: plan.config.entries
      .filter((entry) => entry.choice !== undefined)
      .map((entry) => entry.key),
    codeDefaults: findCodeDefaults(
      plan.logic.order
        .filter((path) => existsSync(join(work.repoDir, path)))
        .map((path) => ({ path, content: readFileSync(join(work.repoDir, path), 'utf8') })),
    ),
    interfacesUsed: generated.interfacesUsed,
    ...(checked.environment === undefined ? {} : { environment: checked.environment }),
    ...(checked.tests === undefined ? {} : { tests: checked.tests }),
    ...(selfCheck === undefined ? {} : { selfCheck }),
    experiments: plan.experiments,
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
  return { repository: work.repoDir, report, reportPath };
}
