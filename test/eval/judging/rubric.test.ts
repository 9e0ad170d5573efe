import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LeafGrade, loadRubric, scoreTree } from '../../../src/eval/judging/rubric.js';

/** A PaperBench-style tree (test/grading/grade-rubric.test.ts grades the same tree): root(weights 3 and 1) → method(2 leaves, weights 1 and 3), results(1 leaf). */
const rubricJson = {
  id: 'root',
  requirements: 'The paper is reproduced.',
  weight: 1,
  sub_tasks: [
    {
      id: 'method',
      requirements: 'The mixup method is implemented.',
      weight: 3,
      sub_tasks: [
        {
          id: 'mix-inputs',
          requirements: 'Inputs are mixed with a Beta(alpha, alpha) coefficient in train.py.',
          weight: 1,
          sub_tasks: [],
          task_category: 'Code Development',
          finegrained_task_category: 'Method Implementation',
        },
        {
          id: 'mix-labels',
          requirements: 'Labels are mixed with the same coefficient.',
          weight: 3,
          sub_tasks: [],
          task_category: 'Code Development',
        },
      ],
    },
    {
      id: 'results',
      requirements: 'The accuracy is reported.',
      weight: 1,
      sub_tasks: [],
      task_category: 'Result Analysis',
    },
  ],
};

function rubricFile(value: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'codify-rubric-')), 'rubric.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
}

const grade = (id: string, score: 0 | 1): [string, LeafGrade] => [
  id,
  { id, score, reason: 'r', files: [] },
];

describe('rubric trees', () => {
  it('aggregate known leaf grades by weighted mean up the tree', () => {
    const rubric = loadRubric(rubricFile(rubricJson));
    // method = (1·1 + 3·0)/4 = 0.25; root = (3·0.25 + 1·1)/4 = 0.4375
    const scored = scoreTree(
      rubric,
      new Map([grade('mix-inputs', 1), grade('mix-labels', 0), grade('results', 1)]),
    );
    expect(scored.subTasks[0]?.score).toBe(0.25);
    expect(scored.score).toBe(0.4375);
    // method = 0.75; root = (3·0.75 + 0)/4 = 0.5625
    expect(
      scoreTree(
        rubric,
        new Map([grade('mix-inputs', 0), grade('mix-labels', 1), grade('results', 0)]),
      ).score,
    ).toBe(0.5625);
    // Ungraded leaves count as unmet.
    expect(scoreTree(rubric, new Map()).score).toBe(0);
  });

  it('reads a tree wrapped as {"rubric": …} and takes "Execution" for "Code Execution"', () => {
    const wrapped = loadRubric(
      rubricFile({
        rubric: {
          id: 'r',
          requirements: 'x',
          weight: 1,
          sub_tasks: [
            { id: 'l', requirements: 'runs', weight: 1, sub_tasks: [], task_category: 'Execution' },
          ],
        },
      }),
    );
    expect(wrapped.subTasks[0]?.category).toBe('Code Execution');
  });

  it('names the file and the node of a malformed tree', () => {
    const bad = structuredClone(rubricJson);
    delete (bad.sub_tasks[0]?.sub_tasks[1] as { task_category?: string }).task_category;
    const file = rubricFile(bad);
    expect(() => loadRubric(file)).toThrow(
      `${file}: (root).sub_tasks[0].sub_tasks[1]: a leaf needs "task_category"`,
    );
    const negative = structuredClone(rubricJson);
    negative.sub_tasks[1] = {
      ...rubricJson.sub_tasks[1],
      weight: -1,
    } as (typeof rubricJson.sub_tasks)[number];
    expect(() => loadRubric(rubricFile(negative))).toThrow(
      /\(root\)\.sub_tasks\[1\]: "weight" must be a number ≥ 0/,
    );
  });
});
