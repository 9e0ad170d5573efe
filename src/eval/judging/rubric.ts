import { existsSync, readFileSync } from 'node:fs';
import { SuiteError } from '../suite/suite-error.js';

/** A leaf's kind of requirement, as PaperBench names them. */
export const leafCategories = ['Code Development', 'Code Execution', 'Result Analysis'] as const;
export type LeafCategory = (typeof leafCategories)[number];

/** A node of a PaperBench rubric.json tree: weighted requirements, leaves graded 0/1. */
export interface RubricNode {
  id: string;
  requirements: string;
  weight: number;
  subTasks: RubricNode[];
  /** Leaves only. */
  category?: LeafCategory;
}

/** A leaf's grade from the judge. */
export interface LeafGrade {
  id: string;
  score: 0 | 1;
  reason: string;
  /** Files the judge was shown, most relevant first. */
  files: string[];
}

/** A node with its aggregated score (weighted mean of its children; a leaf's grade). */
export interface ScoredNode {
  id: string;
  requirements: string;
  weight: number;
  category?: LeafCategory;
  score: number;
  reason?: string;
  files?: string[];
  subTasks: ScoredNode[];
}

// PaperBench writes "Code Execution"; some copies say "Execution".
const categoryAliases: Record<string, LeafCategory> = {
  'code development': 'Code Development',
  'code execution': 'Code Execution',
  execution: 'Code Execution',
  'result analysis': 'Result Analysis',
};

function parseNode(value: unknown, where: string, file: string): RubricNode {
  const fail = (message: string): never => {
    throw new SuiteError(`${file}: ${where}: ${message}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('expected an object');
  const node = value as Record<string, unknown>;
  const id = node.id;
  if (typeof id !== 'string' || id === '') fail('"id" must be a non-empty string');
  if (typeof node.requirements !== 'string') fail('"requirements" must be a string');
  if (typeof node.weight !== 'number' || !(node.weight >= 0)) fail('"weight" must be a number ≥ 0');
  const children = node.sub_tasks ?? [];
  if (!Array.isArray(children)) fail('"sub_tasks" must be a list');
  const subTasks = (children as unknown[]).map((child, index) =>
    parseNode(child, `${where}.sub_tasks[${index}]`, file),
  );
  const parsed: RubricNode = {
    id: id as string,
    requirements: node.requirements as string,
    weight: node.weight as number,
    subTasks,
  };
  if (subTasks.length === 0) {
    const text = typeof node.task_category === 'string' ? node.task_category.toLowerCase() : '';
    const category = categoryAliases[text];
    if (category === undefined) {
      fail(
        `a leaf needs "task_category": one of ${leafCategories.map((name) => `"${name}"`).join(', ')}`,
      );
    }
    parsed.category = category;
  }
  return parsed;
}

/** Reads a PaperBench rubric.json (a tree of nodes, or an object holding one as `rubric`). */
export function loadRubric(file: string): RubricNode {
  if (!existsSync(file)) throw new SuiteError(`Rubric not found: ${file}`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SuiteError(
      `${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    'rubric' in value &&
    !('requirements' in value)
  ) {
    return parseNode(value.rubric, 'rubric', file);
  }
  return parseNode(value, '(root)', file);
}

export function leavesOf(node: RubricNode): RubricNode[] {
  return node.subTasks.length === 0 ? [node] : node.subTasks.flatMap(leavesOf);
}

/**
 * Scores the tree from its leaves' grades: a leaf scores its grade, any other node the
 * weighted mean of its children (the plain mean when every weight is 0). A leaf without a
 * grade scores 0, as PaperBench counts an ungraded requirement as unmet.
 */
export function scoreTree(node: RubricNode, grades: ReadonlyMap<string, LeafGrade>): ScoredNode {
  if (node.subTasks.length === 0) {
    const grade = grades.get(node.id);
    return {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      ...(node.category === undefined ? {} : { category: node.category }),
      score: grade?.score ?? 0,
      reason: grade?.reason ?? 'not graded',
      files: grade?.files ?? [],
      subTasks: [],
    };
  }
  const children = node.subTasks.map((child) => scoreTree(child, grades));
  const totalWeight = children.reduce((sum, child) => sum + child.weight, 0);
  const score =
    totalWeight === 0
      ? children.reduce((sum, child) => sum + child.score, 0) / children.length
      : children.reduce((sum, child) => sum + child.weight * child.score, 0) / totalWeight;
  return {
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    score,
    subTasks: children,
  };
}
