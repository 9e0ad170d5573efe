import { existsSync, readFileSync } from 'node:fs';
import { SuiteError } from '../suite/suite-error.js';

import { type LeafCategory, leafCategories, type RubricNode } from '../../grading/rubric-tree.js';

export {
  type LeafCategory,
  type LeafGrade,
  leafCategories,
  leavesOf,
  type RubricNode,
  scoreTree,
  type ScoredNode,
} from '../../grading/rubric-tree.js';

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
