import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { condensePaper, designTerms, type CondensedPaper } from './condensed-paper.js';
import { quotedEntries, renderConfigYaml } from './config-yaml.js';
import { reproduceScript, smokeCommand, writeReadme } from './environment.js';
import { experimentConfigs, experimentsReadmeSection } from './experiments.js';
import { earlierFilesView, writeFiles } from './generation.js';
import { laterStageContext } from './later-context.js';
import { mergeGitignore } from './gitignore.js';
import { planRepository, renderDesign, type Plan } from './planning.js';
import {
  importsBudgetChars,
  repositoryBudgetChars,
  writeRepoFile,
  type RepoWork,
} from './repo-work.js';
import { devRequirementsFile, requirementsFile, splitRequirements } from './requirements.js';
import {
  describePlanningEnvironment,
  describeTargetEnvironment,
  probeTargetEnvironment,
  type TargetEnvironment,
} from './target-environment.js';

/**
 * The environment planning is told: the interpreter with the most of the usual packages
 * (`richestInterpreter`) and their versions. Undefined when the run names no candidates (a
 * library caller) or none can be probed: planning then names no environment.
 */
async function planningEnvironment(work: RepoWork): Promise<string | undefined> {
  const richest = await work.options.usualInterpreter?.();
  return richest === undefined ? undefined : describePlanningEnvironment(richest);
}

/** Plan: overall plan, design, config and experiments, written under docs/ and as YAML. */
export async function planStage(work: RepoWork): Promise<Plan> {
  const { options } = work;
  const environment = await planningEnvironment(work);
  const plan = await planRepository(work.models, options.paperText, {
    selfRefine: options.selfRefine,
    quoteSource: options.fullPaperText ?? options.paperText,
    ...(environment === undefined ? {} : { environment }),
  });
  writeRepoFile(work, 'docs/plan.md', `${plan.overall}\n`, 'plan');
  writeRepoFile(work, 'docs/design.md', `${renderDesign(plan, { diagrams: true })}\n`, 'design');
  writeRepoFile(work, 'config.yaml', renderConfigYaml(plan.config), 'config');
  writeRepoFile(work, 'config_smoke.yaml', renderConfigYaml(plan.config, true), 'config');
  for (const file of experimentConfigs(plan))
    writeRepoFile(work, file.path, file.content, 'config');
  writeRepoFile(work, 'docs/rubric.json', `${JSON.stringify(plan.rubric, null, 2)}\n`, 'rubric');
  return plan;
}

/**
 * After planning the paper is condensed, for a file whose design names no section of it
 * (and the self-check's rewrite of one): what the code is built from stays whole, the rest
 * (introduction, related work, results…) shrinks to its key sentences. No model is asked,
 * so a resumed run condenses again rather than storing it.
 */
export function condenseForLaterStages(work: RepoWork, plan: Plan): CondensedPaper {
  const { paperText } = work.options;
  const design = renderDesign(plan);
  const condensed = condensePaper(paperText, {
    quotes: quotedEntries(plan.config).map((entry) => entry.evidence ?? ''),
    design,
    terms: designTerms(
      design,
      plan.config.entries.map((entry) => entry.key),
    ),
  });
  writeFileSync(join(work.run.dir, 'paper-condensed.md'), condensed.text);
  if (condensed.condensed.length > 0)
    work.run.emit({
      type: 'log',
      level: 'info',
      message: `paper condensed for a file whose design names no section of it: ${paperText.length} → ${condensed.text.length} characters (condensed: ${condensed.condensed.join(', ')})`,
    });
  return condensed;
}

export interface Generated {
  /** Per file, the earlier files its prompt gave as interfaces only. */
  interfacesUsed: Record<string, string[]>;
}

/**
 * Write: each file in dependency order, one call giving its analysis (under docs/analysis/)
 * and its code, written as it compiles.
 */
export async function writeStage(
  work: RepoWork,
  plan: Plan,
  target: TargetEnvironment,
  condensedText: string,
): Promise<Generated> {
  const interfacesUsed: Record<string, string[]> = {};
  const paper = { full: work.options.paperText, condensed: condensedText };
  const files = await writeFiles(work.models, plan, laterStageContext(plan), paper, {
    interpreter: work.options.interpreter,
    environment: describeTargetEnvironment(target),
    earlierBudgetChars: work.options.earlierBudgetChars ?? importsBudgetChars,
    onFile: (file, view) => {
      if (file.analysis.length > 0)
        writeRepoFile(
          work,
          `docs/analysis/${file.path.replace(/\.py$/, '')}.md`,
          `${file.analysis}\n`,
          'analysis',
        );
      writeRepoFile(work, file.path, file.content, 'code');
      if (view.asInterface.length > 0) interfacesUsed[file.path] = view.asInterface;
    },
  });
  for (const path of plan.logic.order) {
    if (path.endsWith('.py') && !files.some((file) => file.path === path)) {
      throw new Error(`generation did not produce ${path}`);
    }
  }
  return { interfacesUsed };
}

/** Environment: requirements, reproduce.sh, .gitignore and the README the model writes. */
export async function environmentStage(work: RepoWork, plan: Plan): Promise<void> {
  // Before any run: what the smoke run writes is ignored from the first run on. A .gitignore
  // the model wrote keeps its lines.
  const gitignore = join(work.repoDir, '.gitignore');
  writeRepoFile(
    work,
    '.gitignore',
    mergeGitignore(existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : undefined),
    'environment',
  );
  const requirements = splitRequirements(plan);
  writeRepoFile(work, 'requirements.txt', requirementsFile(requirements.run), 'environment');
  if (requirements.test.length > 0)
    writeRepoFile(
      work,
      'requirements-dev.txt',
      devRequirementsFile(requirements.test),
      'environment',
    );
  writeRepoFile(work, 'reproduce.sh', reproduceScript(plan), 'environment');
  const code = earlierFilesView(
    plan.logic.order
      .filter((path) => path.endsWith('.py') && existsSync(join(work.repoDir, path)))
      .map((path) => ({ path, content: readFileSync(join(work.repoDir, path), 'utf8') })),
    work.options.earlierBudgetChars ?? repositoryBudgetChars,
    new Set([plan.logic.entryPoint]),
    "The repository's code as it stands:",
  );
  // What the README tells a reader to run is shown beside the code it runs.
  const scripts = ['requirements.txt', 'requirements-dev.txt', 'reproduce.sh']
    .filter((path) => existsSync(join(work.repoDir, path)))
    .map((path) => {
      const language = path.endsWith('.sh') ? 'bash' : 'text';
      const text = readFileSync(join(work.repoDir, path), 'utf8').trimEnd();
      return `### ${path}\n\`\`\`${language}\n${text}\n\`\`\``;
    });
  const readme = await writeReadme(work.models, plan, laterStageContext(plan), {
    title: work.options.title,
    code: [code.text, ...scripts].join('\n\n'),
  });
  writeRepoFile(
    work,
    'README.md',
    `${readme.trimEnd()}\n\n${experimentsReadmeSection(plan, smokeCommand(plan))}`,
    'readme',
  );
}

/**
 * The target environment: the interpreter chosen for what the code needs (as verify will
 * choose it) and the versions it holds of each required package, so generation writes code
 * for them. Probed once per run; a stage, so a resumed run states the same versions.
 */
export async function targetEnvironmentStage(
  work: RepoWork,
  plan: Plan,
): Promise<TargetEnvironment> {
  const { options } = work;
  const packages = plan.logic.requiredPackages;
  const chosen = await options.chooseInterpreter?.(
    splitRequirements(plan).run.map((pkg) => pkg.importName),
  );
  const interpreter =
    chosen === undefined || 'problem' in chosen ? options.interpreter : chosen.path;
  return probeTargetEnvironment(interpreter, packages).catch((): TargetEnvironment => ({
    interpreter,
    python: 'unknown (the interpreter could not be probed)',
    packages: packages.map((pkg) => ({ name: pkg.name, version: null })),
  }));
}
