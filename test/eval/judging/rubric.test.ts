import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeRubric } from '../../../src/eval/judging/grade-rubric.js';
import { selectRelevantFiles } from '../../../src/eval/judging/relevant-files.js';
import { type LeafGrade, loadRubric, scoreTree } from '../../../src/eval/judging/rubric.js';
import { scriptedJudge } from '../scripted-judge.js';

/** A PaperBench-style tree: root(weights 3 and 1) → method(2 leaves, weights 1 and 3), results(1 leaf). */
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

  it('are graded leaf by leaf by the judge, invalid answers asked again, and scored', async () => {
    const judge = scriptedJudge((request, attempt) => {
      const leaf = (request.label ?? '').replace('rubric ', '');
      if (leaf === 'mix-labels' && attempt === 1)
        return '```json\n{"score": 2, "reason": "half"}\n```';
      const score = leaf === 'results' ? 0 : 1;
      return `\`\`\`json\n{"score": ${score}, "reason": "decided by ${leaf}"}\n\`\`\``;
    });
    const files = [
      { path: 'README.md', content: 'How to run.' },
      {
        path: 'train.py',
        content: 'lam = rng.beta(alpha, alpha)\nx = lam * x1 + (1 - lam) * x2\n',
      },
    ];
    const { tree, grades } = await gradeRubric({
      rubric: loadRubric(rubricFile(rubricJson)),
      title: 'mixup',
      files,
      outputs: 'accuracy: 0.97',
      judge,
      item: 'mixup',
      runDir: '/r',
    });
    // method = (1 + 3)/4 = 1; root = (3·1 + 1·0)/4 = 0.75
    expect(tree.score).toBe(0.75);
    expect(grades.map((entry) => [entry.id, entry.score])).toEqual([
      ['mix-inputs', 1],
      ['mix-labels', 1],
      ['results', 0],
    ]);
    expect(grades[0]?.reason).toBe('decided by mix-inputs');
    expect(grades[0]?.files[0]).toBe('train.py');
    // mix-labels was asked twice: the first answer's score 2 is not a grade.
    expect(judge.requests.filter((request) => request.label === 'rubric mix-labels')).toHaveLength(
      2,
    );
    expect(judge.requests.every((request) => request.role === 'judge')).toBe(true);
    const resultPrompt = judge.requests.find((request) => request.label === 'rubric results')
      ?.messages[0]?.content;
    expect(resultPrompt).toContain('accuracy: 0.97');
    expect(resultPrompt).toContain('The paper is reproduced.');
  });
});

describe('selectRelevantFiles', () => {
  it("puts the files that share the requirement's words first and fits the budget", () => {
    const files = [
      { path: 'utils.py', content: 'def log(): pass\n'.repeat(50) },
      { path: 'model.py', content: 'class Encoder: attention heads\n'.repeat(20) },
      { path: 'data.py', content: 'def load(): return digits\n' },
    ];
    const { shown, named } = selectRelevantFiles(
      'The encoder uses attention heads on the digits data',
      files,
      700,
    );
    expect(shown[0]?.path).toBe('model.py');
    expect(shown[1]?.path).toBe('data.py');
    expect(shown.reduce((sum, file) => sum + file.content.length, 0)).toBeLessThan(800);
    expect([...shown.map((file) => file.path), ...named]).toContain('utils.py');
  });
});
