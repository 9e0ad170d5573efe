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
  /** Whether the judge saw every candidate file or the ones it picked (the code did not fit). */
  selection?: 'whole' | 'picked';
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
  selection?: 'whole' | 'picked';
  subTasks: ScoredNode[];
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
      ...(grade?.selection === undefined ? {} : { selection: grade.selection }),
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
