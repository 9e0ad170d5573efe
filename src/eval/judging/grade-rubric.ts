import { z } from 'zod';
import type { ModelCaller } from '../../llm/types.js';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { askStructured } from '../../repo/structured-answer.js';
import type { CodifyEventBody } from '../../runs/events.js';
import { renderFiles, selectRelevantFiles, type SourceFile } from './relevant-files.js';
import {
  type LeafCategory,
  type LeafGrade,
  leavesOf,
  type RubricNode,
  scoreTree,
  type ScoredNode,
} from './rubric.js';

const leafAnswer = z.object({
  score: z.union([z.literal(0), z.literal(1)]),
  reason: z.string().min(1),
});

const categoryHelp: Record<LeafCategory, string> = {
  'Code Development': 'Is there code that implements it (whether or not it was run)?',
  'Code Execution': 'Did running the repository do it, as the output below shows?',
  'Result Analysis': 'Do the outputs report the result the requirement asks for?',
};

export interface GradeRubricOptions {
  rubric: RubricNode;
  title: string;
  files: readonly SourceFile[];
  /** What running the repository printed (smoke runs), for execution and result leaves. */
  outputs: string;
  judge: ModelCaller;
  /** Characters of files per leaf prompt (default 24 000). */
  budgetChars?: number;
  emit?: (body: CodifyEventBody) => void;
  /** For judge-grade events. */
  item: string;
  runDir: string;
}

/** The requirements of the ancestors of each leaf, root first, so a leaf is read in context. */
function ancestry(
  node: RubricNode,
  path: string[] = [],
  into = new Map<string, string[]>(),
): Map<string, string[]> {
  for (const child of node.subTasks) {
    if (child.subTasks.length === 0) into.set(child.id, [...path, node.requirements]);
    else ancestry(child, [...path, node.requirements], into);
  }
  return into;
}

/**
 * PaperBench's rubric grading: the judge grades each leaf 0/1 with a reason, shown the
 * files most relevant to that leaf (so a large repository fits) and, for execution and
 * result leaves, what the runs printed; the tree's score is the weighted mean up the tree.
 * An answer that is not `{score: 0|1, reason}` is asked again with the problem.
 */
export async function gradeRubric(
  options: GradeRubricOptions,
): Promise<{ tree: ScoredNode; grades: LeafGrade[] }> {
  const context = ancestry(options.rubric);
  const grades: LeafGrade[] = [];
  for (const leaf of leavesOf(options.rubric)) {
    const { shown, named } = selectRelevantFiles(
      leaf.requirements,
      options.files,
      options.budgetChars ?? 24_000,
    );
    const category = leaf.category ?? 'Code Development';
    const { value } = await askStructured(
      options.judge,
      {
        role: 'judge',
        label: `rubric ${leaf.id}`,
        expect: 'JSON: {"score": 0 or 1, "reason": "..."}',
        messages: [
          {
            role: 'user',
            content: loadPrompt('eval-rubric-leaf', {
              title: options.title,
              requirement: leaf.requirements,
              context: (context.get(leaf.id) ?? []).join(' → ') || '(the root)',
              category,
              category_help: categoryHelp[category],
              outputs:
                category === 'Code Development'
                  ? '(not needed for this kind)'
                  : options.outputs || '(nothing ran)',
              files: renderFiles(shown),
              named: named.length === 0 ? '' : `Other files, not shown: ${named.join(', ')}.`,
            }),
          },
        ],
      },
      leafAnswer,
    );
    const grade: LeafGrade = {
      id: leaf.id,
      score: value.score,
      reason: value.reason,
      files: shown.map((file) => file.path),
    };
    grades.push(grade);
    options.emit?.({
      type: 'judge-grade',
      item: options.item,
      runDir: options.runDir,
      node: leaf.id,
      score: grade.score,
      reason: grade.reason,
    });
  }
  return {
    tree: scoreTree(options.rubric, new Map(grades.map((grade) => [grade.id, grade]))),
    grades,
  };
}
