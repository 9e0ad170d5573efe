import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelCaller } from '../../src/llm/types.js';
import type { EventOf } from '../../src/runs/events.js';
import { withRun, type RunScope } from '../../src/runs/lifecycle.js';
import { readEvents } from '../../src/runs/read-events.js';
import { defaultLimits, type Sandbox } from '../../src/sandbox/types.js';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { richestInterpreter } from '../../src/repo/target-environment.js';
import { fakeRun as fakeRunIn } from './fake-run.js';
import { labelledCaller } from './scripted-paper-model.js';

const paper = `# Ridge on digits
We fit ridge regression with regularization strength 0.5 on the digits data.
We train for 3 epochs with a learning rate of 0.1.`;

const json = (value: unknown) =>
  `Here it is:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
const design = {
  implementationApproach: 'numpy only',
  files: [
    { path: 'model.py', purpose: 'the ridge model', logic: 'def fit' },
    { path: 'main.py', purpose: 'entry point', logic: 'reads config', imports: ['model.py'] },
  ],
  requiredPackages: [{ name: 'numpy', importName: 'numpy' }],
  order: ['model.py', 'main.py'],
  sharedKnowledge: 'config keys ridge.alpha',
  entryPoint: 'main.py',
  classDiagram: 'classDiagram\n  class Ridge',
  sequenceDiagram: 'sequenceDiagram\n  participant M as main',
};
const answers = {
  'plan-overall':
    '## Method\nridge\n## Data\ndigits\n## Settings\nfit\n## Experiments\nTable 1\n## Hyperparameters\nalpha 0.5\n## Metrics\naccuracy\n## Unclear\nnothing',
  // The first design answer lacks the sequence diagram and must be re-asked.
  'plan-design': (_request: unknown, attempt: number) =>
    json({
      ...design,
      ...(attempt === 1 ? { sequenceDiagram: 'graph TD' } : {}),
    }),
  'plan-config': json({
    entries: [
      { key: 'ridge.alpha', value: 0.5, evidence: 'regularization strength 0.5' },
      { key: 'training.epochs', value: 3, evidence: 'We train for 3 epochs' },
      { key: 'training.batch', value: 64, evidence: 'batches of 64 samples' },
    ],
    smokeOverrides: [{ key: 'training.epochs', value: 1 }],
    experiments: [
      {
        id: 'table1-ridge',
        source: 'Table 1',
        description: 'ridge on digits',
        overrides: [],
      },
    ],
  }),
  'plan-rubric': json({
    id: 'root',
    requirements: 'Ridge on digits is reproduced',
    weight: 1,
    sub_tasks: [
      {
        id: 'ridge-fit',
        requirements: 'Ridge regression is fitted with alpha 0.5',
        weight: 1,
        sub_tasks: [],
        task_category: 'Code Development',
      },
    ],
  }),
  'write model.py':
    'model.py fits ridge and reads ridge.alpha from the configuration.\n\n```python\ndef fit(alpha: float) -> float:\n    """Fits."""\n    return alpha * 2\n```',
  'write main.py': (_request: unknown, attempt: number) =>
    attempt === 1
      ? '```python\ndef broken(:\n```'
      : '```python\nimport sys\nfrom model import fit\n\nprint("accuracy:", fit(0.5))\nsys.exit(0 if sys.argv[1] == "--config" else 1)\n```',
  readme:
    '# Ridge on digits\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function fakeRun() {
  const made = fakeRunIn();
  cleanups.push(made.remove);
  return made;
}

describe('paperToRepository', () => {
  it('plans, writes each file with its analysis and commits each stage, re-asking invalid answers', async () => {
    const { run, events } = fakeRun();
    const models = labelledCaller(answers, run);
    const sandbox: Sandbox = {
      kind: 'none',
      run: () => Promise.reject(new Error('verify is skipped in this test')),
    };
    const result = await paperToRepository({
      paperText: paper,
      title: 'Ridge on digits',
      models,
      run,
      sandbox,
      interpreter: 'python3',
      limits: defaultLimits,
      selfRefine: false,
      repairBudgetSteps: 0,
      skipVerify: true,
      // Planning is told the interpreter with the most of the usual packages, and their versions.
      usualInterpreter: () => richestInterpreter(['python3', '/no/such/python']),
    });
    const repo = result.repository;
    const planning = models.requests.find((request) => request.label === 'plan-overall');
    expect(planning?.system).toMatch(
      /<target-environment>\n[^<]*\n- Python 3\.\d+\.\d+\n- (installed: |none of the usual)/,
    );
    const log = execFileSync('git', ['-C', repo, 'log', '--format=%s'], { encoding: 'utf8' });
    expect(log.trim().split('\n').reverse()).toEqual([
      'plan: plan, design and config.yaml',
      'generate: analysis and code of 2 files in dependency order',
      'environment: requirements.txt, reproduce.sh and README',
    ]);
    const config = readFileSync(join(repo, 'config.yaml'), 'utf8');
    expect(config).toContain('alpha: 0.5 # paper: "regularization strength 0.5"');
    // A quote the paper does not hold is dropped, and the report says so.
    expect(config).not.toContain('batch');
    expect(result.report.droppedConfigKeys).toEqual(['training.batch']);
    expect(readFileSync(join(repo, 'config_smoke.yaml'), 'utf8')).toContain('epochs: 1');
    expect(readFileSync(join(repo, 'requirements.txt'), 'utf8')).toBe('numpy\n');
    expect(readFileSync(join(repo, 'main.py'), 'utf8')).toContain('from model import fit');
    const designCalls = models.requests.filter((request) => request.label === 'plan-design');
    expect(designCalls).toHaveLength(2);
    expect(designCalls[1]?.messages.at(-1)?.content).toContain(
      'sequenceDiagram: must be a mermaid sequenceDiagram',
    );
    // The conversation goes on with the accepted answer only: the retry is left out.
    const configCall = models.requests.find((request) => request.label === 'plan-config');
    expect(configCall?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(JSON.stringify(configCall?.messages)).not.toContain('graph TD');
    // Each file's answer gives its analysis before the code: kept under docs/analysis/.
    expect(readFileSync(join(repo, 'docs', 'analysis', 'model.md'), 'utf8')).toBe(
      'model.py fits ridge and reads ridge.alpha from the configuration.\n',
    );
    // The README is written from the code and the scripts it tells a reader to run.
    const readmeCall = models.requests.find((request) => request.label === 'readme');
    expect(readmeCall?.messages[0]?.content).toContain('from model import fit');
    expect(readmeCall?.messages[0]?.content).toContain(
      '### reproduce.sh\n```bash\n#!/usr/bin/env bash',
    );
    expect(readmeCall?.messages[0]?.content).toContain('### requirements.txt\n```text\nnumpy');
    // And the plan's list of what the paper leaves unclear, which the README must answer.
    expect(readmeCall?.messages[0]?.content).toContain(
      '## What the plan found unclear in the paper\n\nnothing\n',
    );
    const mainCalls = models.requests.filter((request) => request.label === 'write main.py');
    expect(mainCalls[1]?.messages.at(-1)?.content).toContain('does not compile');
    // main.py imports model.py: its request shows it, and the experiments it must run.
    expect(mainCalls[0]?.messages[0]?.content).toContain('### model.py');
    expect(mainCalls[0]?.messages[0]?.content).toContain('table1-ridge (Table 1)');
    expect(result.report.stages.map((stage) => stage.stage)).toEqual([
      'plan',
      'target-environment',
      'generate',
      'environment',
    ]);
    expect(result.report.totals.calls).toBe(models.requests.length);
    // Cached input tokens are added up per stage and shown beside the input tokens.
    expect(result.report.totals.cachedInputTokens).toBe(40 * models.requests.length);
    expect(readFileSync(result.reportPath, 'utf8')).toContain(
      `| total | ${models.requests.length} | ${100 * models.requests.length} | ${40 * models.requests.length} |`,
    );
    expect(readFileSync(result.reportPath, 'utf8')).toContain('verify was skipped');
    expect(events.filter((event) => event.type === 'stage-end')).toHaveLength(4);
  });

  it('refuses an output folder that already holds files', async () => {
    const { run } = fakeRun();
    const models = labelledCaller(answers);
    await expect(
      paperToRepository({
        paperText: paper,
        title: 't',
        models,
        run,
        sandbox: { kind: 'none', run: () => Promise.reject(new Error('unused')) },
        interpreter: 'python3',
        limits: defaultLimits,
        selfRefine: false,
        repairBudgetSteps: 0,
        outDir: join(process.cwd(), 'src'),
      }),
    ).rejects.toThrow(/already holds .* entries/);
    expect(models.requests).toHaveLength(0);
  });
});

describe('paperToRepository verify', () => {
  it('runs the smoke entry point in the real sandbox, and repairs a failing repository', async () => {
    const { createSandbox } = await import('../../src/sandbox/index.js');
    const { writeFileSync } = await import('node:fs');
    const sandbox = await createSandbox('bubblewrap');
    const failing = {
      ...answers,
      'write main.py':
        '```python\nimport sys\nfrom model import fit\n\nprint("accuracy:", fit(0.5))\nraise SystemExit("config key missing: ridge.alpha")\n```',
    };
    const { run, events } = fakeRun();
    const repairs: string[] = [];
    const result = await paperToRepository({
      paperText: paper,
      title: 'Ridge on digits',
      models: labelledCaller(failing),
      run,
      sandbox,
      interpreter: '/usr/bin/python3',
      limits: { ...defaultLimits, timeoutMs: 30_000 },
      selfRefine: false,
      repairBudgetSteps: 5,
      makeRepairer: (repoDir) => (failure) => {
        repairs.push(failure.outputTail);
        writeFileSync(
          join(repoDir, 'main.py'),
          'from model import fit\nprint("accuracy:", fit(0.5))\n',
        );
        return Promise.resolve({ steps: 2 });
      },
    });
    expect(repairs).toHaveLength(1);
    expect(repairs[0]).toContain('config key missing: ridge.alpha');
    expect(result.report.verify.ok).toBe(true);
    expect(result.report.verify.summary).toContain('after repair (2 agent steps');
    const smokeRuns = events.filter((event) => event.type === 'execution-end');
    expect(smokeRuns.map((event) => event.exitCode)).toEqual([1, 0]);
    const log = execFileSync('git', ['-C', result.repository, 'log', '--format=%s'], {
      encoding: 'utf8',
    });
    expect(log.split('\n')[0]).toBe('verify: repairs after the smoke run');
    expect(readFileSync(result.reportPath, 'utf8')).toContain('**Verify: runs**');
  });
});

describe('paperToRepository resumed', () => {
  it('returns the stages a failed run finished, starts the cut-short one over and asks only new calls', async () => {
    const runsRoot = mkdtempSync(join(tmpdir(), 'codify-repo-resume-'));
    cleanups.push(() => rmSync(runsRoot, { recursive: true, force: true }));
    const sandbox: Sandbox = { kind: 'none', run: () => Promise.reject(new Error('unused')) };
    const pipeline = (scope: RunScope, models: ModelCaller) =>
      paperToRepository({
        paperText: paper,
        title: 'Ridge on digits',
        models,
        run: scope.run,
        stages: scope.stages,
        sandbox,
        interpreter: 'python3',
        limits: defaultLimits,
        selfRefine: false,
        repairBudgetSteps: 0,
        skipVerify: true,
      }).then((result) => ({ status: 'completed' as const, value: result }));
    // The provider goes away at main.py: the write stage has written model.py and stops there.
    const withoutMain = Object.fromEntries(
      Object.entries(answers).filter(([label]) => label !== 'write main.py'),
    );
    let runDir = '';
    await expect(
      withRun(
        { mode: 'paper', name: 'resumed', settings: {} },
        { runsRoot, onRun: (run) => (runDir = run.dir) },
        (run) => labelledCaller(withoutMain, run),
        (scope) => pipeline(scope, scope.models),
      ),
    ).rejects.toThrow('no scripted answer for write main.py');
    expect(existsSync(join(runDir, 'repo', 'model.py'))).toBe(true);

    let second: ReturnType<typeof labelledCaller> | undefined;
    const result = await withRun(
      { resume: runDir },
      { runsRoot },
      (run) => (second = labelledCaller(answers, run)),
      (scope) => pipeline(scope, scope.models),
    );
    // Plan comes from its stored result.
    const ends = readEvents(runDir).events.filter(
      (event): event is EventOf<'stage-end'> => event.type === 'stage-end',
    );
    expect(ends.filter((end) => end.reused === true).map((end) => end.stage)).toEqual([
      'plan',
      'target-environment',
    ]);
    const analysis = readFileSync(join(runDir, 'repo', 'docs', 'analysis', 'model.md'), 'utf8');
    expect(analysis).toContain('reads ridge.alpha');
    // model.py's generation is answered from the log; only what was never answered is asked.
    expect(second?.requests.map((request) => request.label)).toEqual([
      'write main.py',
      'write main.py',
      'readme',
    ]);
    expect(readFileSync(join(result.repository, 'main.py'), 'utf8')).toContain(
      'from model import fit',
    );
    const log = execFileSync('git', ['-C', result.repository, 'log', '--format=%s'], {
      encoding: 'utf8',
    });
    expect(log.trim().split('\n').reverse()).toEqual([
      'plan: plan, design and config.yaml',
      'generate: analysis and code of 2 files in dependency order',
      'environment: requirements.txt, reproduce.sh and README',
    ]);
    // Every call counted once in the report, those of the failed process included.
    const calls = readEvents(runDir).events.filter((event) => event.type === 'llm-end').length;
    expect(result.report.totals.calls).toBe(calls);
    expect(result.report.stages.find((stage) => stage.stage === 'plan')?.calls).toBe(4);
  });
});
