import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelAnswer, ModelCaller, ModelRequest } from '../../src/llm/types.js';
import type { EventOf } from '../../src/runs/events.js';
import { withRun } from '../../src/runs/lifecycle.js';
import { readEvents } from '../../src/runs/read-events.js';
import { defaultLimits, type Sandbox } from '../../src/sandbox/types.js';
import { paperToRepository, type PaperToRepoOptions } from '../../src/repo/pipeline.js';
import {
  experimentsSchema,
  rubricJsonSchema,
  type RubricJsonNode,
} from '../../src/repo/schemas.js';
import { codeDevelopmentTree, rubricFromJson } from '../../src/repo/self-check.js';
import { fakeRun as fakeRunIn } from './fake-run.js';
import {
  designAnswer,
  labelledCaller,
  settingsAnswer,
  type Answerer,
} from './scripted-paper-model.js';

// A made-up paper: two methods in Table 1 and an ablation in Table 2, one figure left out.
const paper = `# Mixing on toy data
We compare a plain baseline with mixing (Table 1) and ablate the noise (Table 2).
We train for 3 epochs. Figure 2 scales to a large model trained for 900 GPU-days.`;

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
const python = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

const modelWithoutWarmup = `def mixed_loss(a: float, b: float, lam: float) -> float:
    """The mixed loss."""
    return lam * a + (1 - lam) * b
`;
const modelWithWarmup = `${modelWithoutWarmup}

def warmup(step: int, total: int) -> float:
    """Linear warmup of the learning rate."""
    return min(1.0, step / total)
`;

const answers: Record<string, Answerer | string> = {
  'plan-overall':
    '## Method\nmixing\n## Data\ntoy\n## Settings\nfit\n## Experiments\nTable 1, Table 2\n## Hyperparameters\n3 epochs\n## Metrics\nloss\n## Unclear\nnothing',
  'plan-design': designAnswer(
    {
      implementationApproach: 'plain Python',
      files: [
        { path: 'model.py', purpose: 'the loss and the schedule' },
        { path: 'main.py', purpose: 'entry point' },
      ],
      classDiagram: 'classDiagram\n  class Model',
      sequenceDiagram: 'sequenceDiagram\n  participant M as main',
    },
    {
      requiredPackages: [],
      fileLogic: [
        { path: 'model.py', logic: 'mixed_loss and warmup' },
        { path: 'main.py', logic: 'reads config' },
      ],
      order: ['model.py', 'main.py'],
      sharedKnowledge: 'method.kind, method.noise',
      entryPoint: 'main.py',
    },
  ),
  'plan-config': settingsAnswer({
    entries: [{ key: 'training.epochs', value: 3, evidence: 'We train for 3 epochs' }],
    smokeOverrides: [{ key: 'training.epochs', value: 1 }],
    experiments: [
      {
        id: 'table1-baseline',
        source: 'Table 1',
        description: 'the plain baseline',
        overrides: [{ key: 'method.kind', value: 'baseline' }],
      },
      {
        id: 'table1-mixing',
        source: 'Table 1',
        description: 'mixing',
        overrides: [{ key: 'method.kind', value: 'mixing' }],
      },
      {
        id: 'table2-no-noise',
        source: 'Table 2',
        description: 'mixing without the noise (ablation)',
        overrides: [
          { key: 'method.kind', value: 'mixing' },
          { key: 'method.noise', value: false },
        ],
      },
      {
        id: 'figure2-large',
        source: 'Figure 2',
        description: 'the large model',
        leftOut: 'needs 900 GPU-days',
      },
    ],
  }),
  'plan-rubric': json({
    id: 'root',
    requirements: 'Mixing on toy data is reproduced',
    weight: 1,
    sub_tasks: [
      {
        id: 'method',
        requirements: 'The method',
        weight: 2,
        sub_tasks: [
          {
            id: 'loss',
            requirements: 'The mixed loss lam * a + (1 - lam) * b is implemented',
            weight: 1,
            sub_tasks: [],
            task_category: 'Code Development',
          },
          {
            id: 'schedule',
            requirements: 'A linear warmup schedule of the learning rate is implemented',
            weight: 1,
            sub_tasks: [],
            task_category: 'Code Development',
          },
        ],
      },
      {
        id: 'table1',
        requirements: 'Table 1 is reproduced within 1 point',
        weight: 1,
        sub_tasks: [],
        task_category: 'Result Analysis',
      },
    ],
  }),
  'write model.py': python(modelWithoutWarmup),
  'write main.py': python(
    'from model import mixed_loss\n\nprint("loss:", mixed_loss(1.0, 2.0, 0.5))\n',
  ),
  'self-check fix model.py': python(modelWithWarmup),
  readme:
    '# Mixing on toy data\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
};

/**
 * The judge: a leaf passes when the code it was shown holds what the leaf asks for. The
 * code leaves graded together are listed under `## id` headings and answered by id.
 */
function judgeAnswer(request: ModelRequest): string {
  const prompt = [request.system ?? '', ...request.messages.map((message) => message.content)].join(
    '\n',
  );
  const grade = (warmupLeaf: boolean) =>
    !warmupLeaf
      ? { score: 1, reason: 'model.py defines mixed_loss' }
      : prompt.includes('def warmup')
        ? { score: 1, reason: 'model.py defines warmup' }
        : { score: 0, reason: 'model.py has no warmup schedule' };
  const asked = request.messages.at(-1)?.content ?? '';
  const ids = [...asked.matchAll(/^## (\S+)$/gm)].map((match) => match[1] ?? '');
  if (ids.length > 0)
    return json({ grades: ids.map((id) => ({ id, ...grade(id === 'schedule') })) });
  return json(grade(asked.includes('warmup schedule')));
}

/** The scripted planner by label; the judge role by what its prompt shows. */
function scriptedModel(
  scripted: Record<string, Answerer | string>,
  run?: Parameters<typeof labelledCaller>[1],
) {
  const judged: string[] = [];
  const planner = labelledCaller(
    { ...scripted, '': (request) => (judged.push(request.label ?? ''), judgeAnswer(request)) },
    run,
  );
  const caller: ModelCaller & { requests: ModelRequest[]; judged: string[] } = {
    requests: planner.requests,
    judged,
    call: (request: ModelRequest): Promise<ModelAnswer> => {
      if (
        request.role !== 'judge' &&
        !Object.keys(scripted).some((key) => (request.label ?? '').startsWith(key))
      )
        return Promise.reject(new Error(`no scripted answer for ${request.label ?? ''}`));
      return planner.call(request);
    },
    levels: (role) => planner.levels(role),
    spec: (role, level) => planner.spec(role, level),
  };
  return caller;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const unusedSandbox: Sandbox = { kind: 'none', run: () => Promise.reject(new Error('unused')) };

function options(models: ModelCaller, run: PaperToRepoOptions['run']): PaperToRepoOptions {
  return {
    paperText: paper,
    title: 'Mixing on toy data',
    models,
    run,
    sandbox: unusedSandbox,
    interpreter: 'python3',
    limits: defaultLimits,
    selfRefine: false,
    selfCheck: true,
    repairBudgetSteps: 0,
    skipVerify: true,
  };
}

describe('paper mode: every experiment and the self-check', () => {
  it('maps two experiments and an ablation to commands, and a self-check round adds the missing leaf', async () => {
    const made = fakeRunIn();
    cleanups.push(made.remove);
    const models = scriptedModel(answers, made.run);
    const result = await paperToRepository(options(models, made.run));
    const repo = result.repository;

    // The README maps every experiment to its command; the figure left out is named with why.
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    for (const id of ['table1-baseline', 'table1-mixing', 'table2-no-noise'])
      expect(readme).toContain(`python3 main.py --config configs/${id}.yaml`);
    expect(readme).toContain('Figure 2 (the large model): needs 900 GPU-days');
    expect(readme).toContain('python3 main.py --config config_smoke.yaml');
    const ablation = readFileSync(join(repo, 'configs/table2-no-noise.yaml'), 'utf8');
    expect(ablation).toMatch(/noise: false/);
    expect(ablation).toMatch(/epochs: 3/);
    // The checklist is in the repository in PaperBench's form.
    const rubric = JSON.parse(readFileSync(join(repo, 'docs/rubric.json'), 'utf8')) as {
      sub_tasks: { id: string }[];
    };
    expect(rubric.sub_tasks.map((node) => node.id)).toEqual(['method', 'table1']);

    // The judge graded the two code leaves (not the result leaf), found the schedule
    // missing, model.py was written again, and only the failed leaf was graded again.
    const selfCheck = result.report.selfCheck;
    expect(selfCheck?.leaves).toBe(2);
    expect(selfCheck?.before.failed.map((leaf) => leaf.id)).toEqual(['schedule']);
    expect(selfCheck?.before.score).toBe(0.5);
    expect(selfCheck?.fixed).toEqual([{ path: 'model.py', leaves: ['schedule'] }]);
    expect(selfCheck?.after?.failed).toEqual([]);
    expect(selfCheck?.after?.score).toBe(1);
    // The two code leaves in one call (they are shown the same code), the failed one again.
    expect(models.judged).toEqual(['rubric 2 code leaves', 'rubric schedule']);
    // Each leaf is judged against the whole paper, as PaperBench's judge and codify eval's
    // are: the paper and the code in the judge's system prompt, the same for every leaf.
    const leafPrompts = models.requests.filter((request) => request.label?.startsWith('rubric '));
    expect(leafPrompts).toHaveLength(2);
    for (const request of leafPrompts) {
      expect(request.system).toContain(paper.split('\n').slice(2, 4).join('\n'));
      expect(request.system).toContain('def mixed_loss');
      expect(request.messages[0]?.content).not.toContain('def mixed_loss');
    }
    const fix = models.requests.find((request) => request.label === 'self-check fix model.py');
    expect(fix?.messages[0]?.content).toContain('A linear warmup schedule');
    expect(fix?.messages[0]?.content).toContain('model.py has no warmup schedule');
    // The rewrite sees the paper too (this design names no sections: the condensed paper).
    expect(fix?.messages[0]?.content).toContain('<paper>');
    expect(readFileSync(join(repo, 'model.py'), 'utf8')).toContain('def warmup');
    const log = execFileSync('git', ['-C', repo, 'log', '--format=%s'], { encoding: 'utf8' });
    expect(log).toContain('self-check: files rewritten for unmet code requirements');
    const report = readFileSync(result.reportPath, 'utf8');
    expect(report).toContain('1/2 code requirements met (50%)');
    expect(report).toContain('after rewriting model.py: 2/2 (100%)');
    expect(report).toContain("Experiments: 3 of the paper's 4 mapped");
    // Generation states the target environment it writes for.
    const generate = models.requests.find((request) => request.label === 'write model.py');
    expect(generate?.messages[0]?.content).toMatch(/- Python \d+\.\d+/);
  });

  it('resumes the self-check as a stage: its grades are not asked again', async () => {
    const runsRoot = mkdtempSync(join(tmpdir(), 'codify-self-check-'));
    cleanups.push(() => rmSync(runsRoot, { recursive: true, force: true }));
    // The provider goes away at the README, after the self-check.
    const withoutReadme = Object.fromEntries(
      Object.entries(answers).filter(([label]) => label !== 'readme'),
    );
    let runDir = '';
    await expect(
      withRun(
        { mode: 'paper', name: 'self-check', settings: {} },
        { runsRoot, onRun: (run) => (runDir = run.dir) },
        (run) => scriptedModel(withoutReadme, run),
        (scope) =>
          paperToRepository({ ...options(scope.models, scope.run), stages: scope.stages }).then(
            (value) => ({ status: 'completed' as const, value }),
          ),
      ),
    ).rejects.toThrow('no scripted answer for readme');

    let second: ReturnType<typeof scriptedModel> | undefined;
    const result = await withRun(
      { resume: runDir },
      { runsRoot },
      (run) => (second = scriptedModel(answers, run)),
      (scope) =>
        paperToRepository({ ...options(scope.models, scope.run), stages: scope.stages }).then(
          (value) => ({ status: 'completed' as const, value }),
        ),
    );
    const reused = readEvents(runDir)
      .events.filter((event): event is EventOf<'stage-end'> => event.type === 'stage-end')
      .filter((end) => end.reused === true)
      .map((end) => end.stage);
    expect(reused).toContain('self-check');
    expect(second?.requests.map((request) => request.label)).toEqual(['readme']);
    expect(result.report.selfCheck?.after?.score).toBe(1);
    expect(readFileSync(join(result.repository, 'model.py'), 'utf8')).toContain('def warmup');
  });
});

describe('the checklist and experiments answers', () => {
  const leaf = (id: string, category?: string) => ({
    id,
    requirements: `requirement ${id}`,
    weight: 1,
    sub_tasks: [],
    ...(category === undefined ? {} : { task_category: category }),
  });
  const root = (...children: unknown[]) => ({
    id: 'root',
    requirements: 'the paper',
    weight: 1,
    sub_tasks: children,
  });

  it('takes a PaperBench rubric tree and refuses one a grader could not use', () => {
    expect(rubricJsonSchema.safeParse(root(leaf('a', 'Code Development'))).success).toBe(true);
    const problems = (value: unknown) =>
      rubricJsonSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
    expect(problems(root(leaf('a', 'Code Development'), leaf('b')))).toContain(
      'leaf b needs a task_category: Code Development, Code Execution or Result Analysis',
    );
    expect(problems(root(leaf('a', 'Result Analysis')))).toContain(
      'no leaf is marked Code Development',
    );
    expect(problems(root(leaf('a', 'Code Development'), leaf('a', 'Code Execution')))).toContain(
      'ids used twice: a',
    );
  });

  it('grades only the Code Development leaves, keeping their place in the tree', () => {
    const tree = codeDevelopmentTree(
      rubricFromJson(
        root(
          { ...root(leaf('a', 'Code Development'), leaf('b', 'Code Execution')), id: 'method' },
          leaf('c', 'Result Analysis'),
        ) as RubricJsonNode,
      ),
    );
    expect(tree?.subTasks.map((node) => node.id)).toEqual(['method']);
    expect(tree?.subTasks[0]?.subTasks.map((node) => node.id)).toEqual(['a']);
  });

  it('needs experiment ids that can name a file, each once', () => {
    const experiment = { id: 'table1', source: 'Table 1', description: 'd', overrides: [] };
    expect(experimentsSchema.safeParse({ experiments: [experiment] }).success).toBe(true);
    expect(
      experimentsSchema.safeParse({ experiments: [{ ...experiment, id: 'mixup-0.2' }] }).success,
    ).toBe(false);
    expect(experimentsSchema.safeParse({ experiments: [experiment, experiment] }).success).toBe(
      false,
    );
  });
});
