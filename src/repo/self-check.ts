import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gradeRubric } from '../eval/judging/grade-rubric.js';
import { repositoryFiles } from '../eval/judging/repository-files.js';
import { scoreTree, type LeafGrade, type RubricNode } from '../eval/judging/rubric.js';
import { paperForFile, rewriteFile } from './generation.js';
import { laterStageContext } from './later-context.js';
import type { Plan } from './planning.js';
import { repositoryBudgetChars, writeRepoFile, type RepoWork } from './repo-work.js';
import { isTestFile } from './requirements.js';
import type { Experiment, RubricJsonNode } from './schemas.js';

/** One grading of the checklist's code leaves. */
export interface SelfCheckScore {
  /** The weighted score of the code leaves, 0 to 1. */
  score: number;
  passed: number;
  /** The leaves graded 0, with the judge's reason. */
  failed: { id: string; requirements: string; reason: string }[];
}

/** What the self-check stage found and did. */
export interface SelfCheckResult {
  /** Code Development leaves of docs/rubric.json graded. */
  leaves: number;
  before: SelfCheckScore;
  /** After the one fix round: the failed leaves graded again (absent when none failed). */
  after?: SelfCheckScore;
  /** Files written again by the fix round, with the leaves each was to meet. */
  fixed: { path: string; leaves: string[] }[];
}

/** The rubric as codify's grader reads it (camelCase), from PaperBench's JSON form. */
export function rubricFromJson(node: RubricJsonNode): RubricNode {
  return {
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    subTasks: node.sub_tasks.map(rubricFromJson),
    ...(node.task_category === undefined ? {} : { category: node.task_category }),
  };
}

/** The tree cut to its Code Development leaves: what can be graded before anything runs. */
export function codeDevelopmentTree(node: RubricNode): RubricNode | undefined {
  if (node.subTasks.length === 0) return node.category === 'Code Development' ? node : undefined;
  const subTasks = node.subTasks
    .map(codeDevelopmentTree)
    .filter((child): child is RubricNode => child !== undefined);
  return subTasks.length === 0 ? undefined : { ...node, subTasks };
}

function leaves(node: RubricNode): RubricNode[] {
  return node.subTasks.length === 0 ? [node] : node.subTasks.flatMap(leaves);
}

function scoreOf(tree: RubricNode, grades: ReadonlyMap<string, LeafGrade>): SelfCheckScore {
  const all = leaves(tree);
  return {
    score: scoreTree(tree, grades).score,
    passed: all.filter((leaf) => grades.get(leaf.id)?.score === 1).length,
    failed: all
      .filter((leaf) => grades.get(leaf.id)?.score !== 1)
      .map((leaf) => ({
        id: leaf.id,
        requirements: leaf.requirements,
        reason: grades.get(leaf.id)?.reason ?? 'not graded',
      })),
  };
}

/**
 * The file a failed leaf sends back to generation: a source file of the plan the judge's
 * reason names, else the first such file it was shown, else the entry point.
 */
export function fixTarget(plan: Plan, grade: LeafGrade): string {
  const sources = plan.logic.order.filter((path) => path.endsWith('.py') && !isTestFile(path));
  const named = sources.find((path) => grade.reason.includes(path));
  if (named !== undefined) return named;
  return grade.files.find((path) => sources.includes(path)) ?? plan.logic.entryPoint;
}

/**
 * The repository's files as the judge reads them: code and configs, not the planning notes
 * and not the tests (the checklist's code leaves ask what the code implements; the tests
 * run after the self-check, in verify).
 */
export function judgedFiles(repoDir: string) {
  return repositoryFiles(repoDir).filter(
    (file) => !file.path.startsWith('docs/') && !isTestFile(file.path),
  );
}

/**
 * The self-check: the judge grades the code against the checklist's Code Development leaves
 * (PaperBench's grading, through `gradeRubric`); the files the failed leaves point at are
 * written again once, by generation, with those requirements; then the failed leaves are
 * graded again. The smoke run and the tests come after, so a fix that breaks the code is
 * caught there.
 */
export async function selfCheckStage(
  work: RepoWork,
  plan: Plan,
  condensed: string,
): Promise<SelfCheckResult> {
  const tree = codeDevelopmentTree(rubricFromJson(plan.rubric));
  if (tree === undefined)
    return { leaves: 0, before: { score: 1, passed: 0, failed: [] }, fixed: [] };
  const grade = async (rubric: RubricNode) =>
    (
      await gradeRubric({
        rubric,
        title: work.options.title,
        // PaperBench's judge reads the paper for every leaf (as codify eval's does)
        paper: work.options.paperText,
        // Every code leaf is shown the same whole code: one call grades them all.
        codeLeavesTogether: true,
        files: judgedFiles(work.repoDir),
        outputs: '',
        judge: work.models,
        emit: (body) => work.run.emit(body),
        item: 'self-check',
        runDir: work.run.dir,
      })
    ).grades;
  const grades = new Map((await grade(tree)).map((item) => [item.id, item]));
  const before = scoreOf(tree, grades);
  const result: SelfCheckResult = { leaves: leaves(tree).length, before, fixed: [] };
  if (before.failed.length === 0) return result;

  const byFile = new Map<string, string[]>();
  for (const failed of before.failed) {
    const leafGrade = grades.get(failed.id);
    const path = leafGrade === undefined ? plan.logic.entryPoint : fixTarget(plan, leafGrade);
    byFile.set(path, [...(byFile.get(path) ?? []), failed.id]);
  }
  // The system prompt of the write stage, so its cached prefix serves the rewrite too.
  const context = laterStageContext(plan);
  for (const [path, ids] of byFile) {
    const failed = before.failed
      .filter((item) => ids.includes(item.id))
      .map((item) => `- ${item.requirements}\n  The grader: ${item.reason}`)
      .join('\n');
    const files = plan.logic.order
      .filter((file) => file.endsWith('.py'))
      .map((file) => ({ path: file, content: readFileSync(join(work.repoDir, file), 'utf8') }));
    const paper = paperForFile(plan, path, { full: work.options.paperText, condensed });
    const rewritten = await rewriteFile(
      work.models,
      context,
      files,
      { path, failed, paper },
      {
        interpreter: work.options.interpreter,
        earlierBudgetChars: work.options.earlierBudgetChars ?? repositoryBudgetChars,
      },
    );
    writeRepoFile(work, path, rewritten.content, 'code');
    result.fixed.push({ path, leaves: ids });
  }

  const failedIds = new Set(before.failed.map((item) => item.id));
  const regraded = await grade({
    ...tree,
    subTasks: leaves(tree).filter((leaf) => failedIds.has(leaf.id)),
  });
  for (const item of regraded) grades.set(item.id, item);
  return { ...result, after: scoreOf(tree, grades) };
}

/** The self-check in a line, for the stage's end and the report. */
export function describeSelfCheck(result: SelfCheckResult): string {
  if (result.leaves === 0) return 'the checklist has no Code Development leaves';
  const percent = (score: number) => `${Math.round(score * 100)}%`;
  const before = `${result.before.passed}/${result.leaves} code requirements met (${percent(result.before.score)})`;
  if (result.after === undefined) return before;
  return `${before}; after rewriting ${result.fixed.map((item) => item.path).join(', ')}: ${result.after.passed}/${result.leaves} (${percent(result.after.score)})`;
}

/** The report's lines on the self-check and the experiments map. */
export function selfCheckLines(
  result: SelfCheckResult | undefined,
  experiments: readonly Experiment[] | undefined,
): string[] {
  const lines: string[] = [];
  if (experiments !== undefined && experiments.length > 0) {
    const leftOut = experiments.filter((item) => item.leftOut !== undefined);
    lines.push(
      '',
      `Experiments: ${experiments.length - leftOut.length} of the paper's ${experiments.length} mapped to a command in the README${leftOut.length === 0 ? '' : `; left out: ${leftOut.map((item) => `${item.source} (${item.leftOut ?? ''})`).join('; ')}`}.`,
    );
  }
  if (result === undefined) return lines;
  lines.push('', `**Self-check** against docs/rubric.json: ${describeSelfCheck(result)}.`);
  const unmet = result.after?.failed ?? result.before.failed;
  if (unmet.length > 0)
    lines.push(
      `Still unmet: ${unmet.map((item) => `${item.id} (${item.reason.replace(/\s+/g, ' ')})`).join('; ')}.`,
    );
  return lines;
}
