import { describe, expect, it } from 'vitest';
import { gradeRubric } from '../../src/eval/judging/grade-rubric.js';
import type { RubricNode } from '../../src/grading/rubric-tree.js';
import type { ModelRequest } from '../../src/llm/types.js';
import { scriptedJudge } from '../eval/scripted-judge.js';

/** root(weights 3 and 1) → method(2 code leaves, weights 1 and 3), run (execution), results (analysis). */
const rubric: RubricNode = {
  id: 'root',
  requirements: 'The paper is reproduced.',
  weight: 1,
  subTasks: [
    {
      id: 'method',
      requirements: 'The mixup method is implemented.',
      weight: 3,
      subTasks: [
        {
          id: 'mix-inputs',
          requirements: 'Inputs are mixed with a Beta(alpha, alpha) coefficient.',
          weight: 1,
          subTasks: [],
          category: 'Code Development',
        },
        {
          id: 'mix-labels',
          requirements: 'Labels are mixed with the same coefficient.',
          weight: 3,
          subTasks: [],
          category: 'Code Development',
        },
      ],
    },
    {
      id: 'results',
      requirements: 'The accuracy is reported.',
      weight: 1,
      subTasks: [
        {
          id: 'runs',
          requirements: 'Training runs to the end.',
          weight: 1,
          subTasks: [],
          category: 'Code Execution',
        },
        {
          id: 'accuracy',
          requirements: 'The accuracy of every method is printed.',
          weight: 1,
          subTasks: [],
          category: 'Result Analysis',
        },
      ],
    },
  ],
};

const paper = '# Mixup for tabular data\n\nWe draw lambda from Beta(alpha, alpha). PAPER-MARKER';
const files = [
  { path: 'README.md', content: 'How to run: python main.py\n' },
  { path: 'docs/design.md', content: 'The design: train.py mixes inputs with rng.beta.\n' },
  { path: 'docs/plan.md', content: 'Plan: write model.py and train.py.\n' },
  { path: 'docs/analysis/train.py.md', content: 'Analysis of train.py: mixing.\n' },
  { path: 'config.yaml', content: 'alpha: 0.2\n' },
  { path: 'train.py', content: 'lam = rng.beta(alpha, alpha)\nx = lam * x1 + (1 - lam) * x2\n' },
];

/** All a leaf's judge read: the system prompt and the request. */
const wholePrompt = (request: ModelRequest | undefined): string =>
  `${request?.system ?? ''}\n${request?.messages[0]?.content ?? ''}`;

const leafPrompt = (requests: ModelRequest[], id: string): string =>
  wholePrompt(requests.find((request) => request.label === `rubric ${id}`));

const grade = (score: 0 | 1, reason: string) =>
  `\`\`\`json\n{"score": ${score}, "reason": "${reason}"}\n\`\`\``;

describe('gradeRubric (PaperBench)', () => {
  it('grades leaf by leaf, asks an invalid answer again and scores the tree', async () => {
    const judge = scriptedJudge((request, attempt) => {
      const leaf = (request.label ?? '').replace('rubric ', '');
      if (leaf === 'mix-labels' && attempt === 1) return grade(1, 'x').replace('1', '2');
      return grade(leaf === 'accuracy' ? 0 : 1, `decided by ${leaf}`);
    });
    const { tree, grades, notes } = await gradeRubric({
      rubric,
      title: 'Mixup for tabular data',
      paper,
      files,
      outputs: 'epoch 10 loss 0.1\naccuracy: 0.97',
      judge,
      item: 'mixup',
      runDir: '/r',
    });
    // method = 1; results = (1 + 0)/2; root = (3·1 + 1·0.5)/4
    expect(tree.score).toBe(0.875);
    expect(grades.map((entry) => [entry.id, entry.score])).toEqual([
      ['mix-inputs', 1],
      ['mix-labels', 1],
      ['runs', 1],
      ['accuracy', 0],
    ]);
    expect(grades[0]?.reason).toBe('decided by mix-inputs');
    expect(notes).toEqual([]);
    expect(judge.requests.filter((request) => request.label === 'rubric mix-labels')).toHaveLength(
      2,
    );
    expect(judge.requests.every((request) => request.role === 'judge')).toBe(true);
  });

  it('shows the paper and addendum in every leaf prompt, code only to code leaves, the output to execution and result leaves, never the planning documents', async () => {
    const judge = scriptedJudge(() => grade(1, 'ok'));
    const { grades } = await gradeRubric({
      rubric,
      title: 'Mixup for tabular data',
      paper,
      addendum: 'ADDENDUM: alpha 0.2 is enough.',
      files,
      outputs: 'accuracy: 0.97 OUTPUT-MARKER',
      judge,
      item: 'mixup',
      runDir: '/r',
    });
    // The whole codebase fits: no call to pick files.
    expect(judge.requests.map((request) => request.label)).toEqual([
      'rubric mix-inputs',
      'rubric mix-labels',
      'rubric runs',
      'rubric accuracy',
    ]);
    for (const request of judge.requests) {
      const prompt = wholePrompt(request);
      // Paper and files are in the system prompt; the request holds the requirement.
      expect(request.system).toContain('PAPER-MARKER');
      expect(request.system).toContain('## train.py');
      expect(request.messages[0]?.content).not.toContain('## train.py');
      expect(prompt).toContain('PAPER-MARKER');
      expect(prompt).toContain('ADDENDUM: alpha 0.2 is enough.');
      expect(prompt).not.toMatch(/## docs\//);
      expect(prompt).toContain('## train.py');
      expect(prompt).toContain('## config.yaml');
    }
    const code = leafPrompt(judge.requests, 'mix-inputs');
    expect(code).not.toContain('OUTPUT-MARKER');
    expect(code).not.toContain('## README.md');
    for (const id of ['runs', 'accuracy']) {
      expect(leafPrompt(judge.requests, id)).toContain('OUTPUT-MARKER');
      expect(leafPrompt(judge.requests, id)).toContain('## README.md');
    }
    expect(grades.map((entry) => entry.selection)).toEqual(['whole', 'whole', 'whole', 'whole']);
    expect(grades[0]?.files).toEqual(['config.yaml', 'train.py']);
    // One prefix per kind of leaf, byte-identical from leaf to leaf, for a provider's cache.
    const systems = judge.requests.map((request) => request.system);
    expect(systems[0]).toBe(systems[1]);
    expect(systems[2]).toBe(systems[3]);
    expect(systems[0]).not.toBe(systems[2]);
  });

  it('grades the code leaves in one call when asked to, by id, and asks again when an id is missing', async () => {
    const judge = scriptedJudge((request, attempt) => {
      if (request.label === 'rubric 2 code leaves') {
        const ids = [...(request.messages[0]?.content ?? '').matchAll(/^## (\S+)$/gm)].map(
          (match) => match[1],
        );
        expect(ids).toEqual(['mix-inputs', 'mix-labels']);
        const grades =
          attempt === 1
            ? [{ id: 'mix-inputs', score: 1, reason: 'train.py draws rng.beta' }]
            : [
                { id: 'mix-inputs', score: 1, reason: 'train.py draws rng.beta' },
                { id: 'mix-labels', score: 0, reason: 'train.py mixes no labels' },
              ];
        return `\`\`\`json\n${JSON.stringify({ grades })}\n\`\`\``;
      }
      return grade(1, 'ok');
    });
    const { grades, tree } = await gradeRubric({
      rubric,
      title: 'Mixup for tabular data',
      paper,
      files,
      outputs: 'accuracy: 0.97',
      judge,
      item: 'mixup',
      runDir: '/r',
      codeLeavesTogether: true,
    });
    expect(judge.requests.map((request) => request.label)).toEqual([
      'rubric 2 code leaves',
      'rubric 2 code leaves',
      'rubric runs',
      'rubric accuracy',
    ]);
    expect(judge.requests[1]?.messages.at(-1)?.content).toContain('no grade for mix-labels');
    // The requirements the leaves belong to are said once, not under every leaf.
    const asked = judge.requests[0]?.messages[0]?.content ?? '';
    expect(asked.split(rubric.requirements).length).toBe(2);
    expect(asked).toMatch(
      /They all belong to: [^\n]+\n\nUnder: [^\n]+\n\n## mix-inputs\n[^\n]+\n\n## mix-labels\n/,
    );
    expect(judge.requests[0]?.system).toContain('PAPER-MARKER');
    expect(judge.requests[0]?.system).toContain('## train.py');
    expect(grades.map((entry) => [entry.id, entry.score])).toEqual([
      ['mix-inputs', 1],
      ['mix-labels', 0],
      ['runs', 1],
      ['accuracy', 1],
    ]);
    expect(grades[1]).toMatchObject({ reason: 'train.py mixes no labels', selection: 'whole' });
    // method: (1·1 + 3·0)/4 = 0.25; results 1; root (3·0.25 + 1·1)/4 = 0.4375.
    expect(tree.score).toBeCloseTo(0.4375);
  });

  it('lets the judge pick the files it needs when the code does not fit its context, and shows those', async () => {
    const big = [
      ...files,
      { path: 'model.py', content: 'class MixupMLP:\n    pass\n'.repeat(400) },
      { path: 'utils.py', content: 'def log(message):\n    print(message)\n'.repeat(400) },
    ];
    const judge = scriptedJudge((request, attempt) => {
      if ((request.label ?? '').endsWith(' files')) {
        // The first answer names a planning document, which is not in the listing.
        return attempt === 1
          ? '```json\n{"files": ["docs/design.md"]}\n```'
          : '```json\n{"files": ["./model.py", "train.py"]}\n```';
      }
      return grade(1, 'ok');
    });
    // 12k tokens: 48 000 characters, 40 000 kept for the answer: about 8 000 for the paper and files.
    const { grades } = await gradeRubric({
      rubric: { ...rubric, subTasks: [rubric.subTasks[0] as RubricNode] },
      title: 'Mixup for tabular data',
      paper,
      files: big,
      outputs: '',
      judge,
      contextTokens: 12_000,
      item: 'mixup',
      runDir: '/r',
    });
    const pick = judge.requests.find((request) => request.label === 'rubric mix-inputs files');
    const listing = wholePrompt(pick);
    expect(listing).toContain('PAPER-MARKER');
    expect(listing).toContain('Inputs are mixed with a Beta(alpha, alpha) coefficient.');
    expect(listing).toContain('model.py (');
    expect(listing).not.toContain('docs/design.md');
    expect(listing).not.toContain('README.md');
    // Asked again after naming a file that is not listed.
    expect(
      judge.requests.filter((request) => request.label === 'rubric mix-inputs files'),
    ).toHaveLength(2);
    const prompt = leafPrompt(judge.requests, 'mix-inputs');
    expect(prompt).toContain('The files you picked as most relevant');
    expect(prompt).toContain('## model.py');
    expect(prompt).not.toContain('## utils.py');
    expect(prompt).toMatch(/Other files, not shown: .*utils\.py/);
    expect(grades[0]).toMatchObject({ selection: 'picked' });
    expect(grades[0]?.files[0]).toBe('model.py');
  });

  it("cuts an output larger than half the judge's context, keeping its end, and says so", async () => {
    const judge = scriptedJudge(() => grade(1, 'ok'));
    const outputs = `${'step\n'.repeat(40_000)}final accuracy 0.97`;
    const { notes } = await gradeRubric({
      rubric: { ...rubric, subTasks: [rubric.subTasks[1] as RubricNode] },
      title: 'Mixup for tabular data',
      paper,
      files,
      outputs,
      judge,
      contextTokens: 60_000,
      item: 'mixup',
      runDir: '/r',
    });
    const prompt = leafPrompt(judge.requests, 'runs');
    expect(prompt).toContain('final accuracy 0.97');
    expect(prompt.length).toBeLessThan(outputs.length);
    expect(notes).toContain('the output was cut to half the judge context (its end kept)');
  });

  it('names only the title when no paper text is given', async () => {
    const judge = scriptedJudge(() => grade(1, 'ok'));
    await gradeRubric({
      rubric,
      title: 'Mixup for tabular data',
      files,
      outputs: '',
      judge,
      item: 'mixup',
      runDir: '/r',
    });
    expect(leafPrompt(judge.requests, 'mix-inputs')).toContain(
      '"Mixup for tabular data" (only its title was given)',
    );
  });
});
