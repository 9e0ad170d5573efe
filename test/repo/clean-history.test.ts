import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeGitignore } from '../../src/repo/gitignore.js';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { defaultLimits } from '../../src/sandbox/types.js';
import { fakeRun } from './fake-run.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

const paper = `# Halving
We halve every input with a factor of 0.5.`;

/** What a training script leaves behind: checkpoints, caches, logs, metrics, the tracer's counts. */
const writesOutputs = `import json, os, sys
os.makedirs("outputs", exist_ok=True)
os.makedirs("checkpoints", exist_ok=True)
os.makedirs(".cache/hub", exist_ok=True)
open("checkpoints/model.ckpt", "wb").write(bytes(range(256)) * 64)
open("outputs/metrics.json", "w").write(json.dumps({"accuracy": 0.5}))
open(".cache/hub/weights.txt", "w").write("cached")
open("main_execution_trace.cover", "w").write(">>>>>> 1: import json\\n")
open("model.pt", "wb").write(b"\\x00" * 1024)
open("weights.bin", "wb").write(b"\\x00\\x01" * 512)
open("results.json", "w").write(json.dumps({"halved": 0.5}))
open("train.log", "w").write("epoch 1\\n")
os.makedirs("data/raw", exist_ok=True)
for part in range(3):
    open("data/raw/part%d.csv" % part, "w").write("x,y\\n1,2\\n")
open("docs/run-notes.md", "w").write("a note the run wrote beside tracked docs\\n")
`;

const answers = {
  'plan-overall':
    '## Method\nhalve\n## Data\nnone\n## Settings\nnone\n## Experiments\nTable 1\n## Hyperparameters\nfactor 0.5\n## Metrics\nnone\n## Unclear\nnothing',
  'plan-design': designAnswer(
    {
      implementationApproach: 'plain Python',
      files: [
        { path: 'model.py', purpose: 'the halving' },
        { path: 'main.py', purpose: 'entry point' },
      ],
      classDiagram: 'classDiagram\n  class Model',
      sequenceDiagram: 'sequenceDiagram\n  participant M as main',
    },
    {
      requiredPackages: [],
      fileLogic: [
        { path: 'model.py', logic: 'def halve' },
        { path: 'main.py', logic: 'writes its outputs' },
      ],
      order: ['model.py', 'main.py'],
      sharedKnowledge: 'factor',
      entryPoint: 'main.py',
    },
  ),
  'plan-config': settingsAnswer({
    entries: [{ key: 'model.factor', value: 0.5, evidence: 'with a factor of 0.5' }],
    smokeOverrides: [{ key: 'model.factor', value: 0.25 }],
  }),
  ...checklist,
  'write model.py': '```python\ndef halve(x: float) -> float:\n    return x / 2\n```',
  // The first smoke run writes every output, then fails: repair has outputs around it.
  'write main.py': `\`\`\`python\n${writesOutputs}raise SystemExit("config key missing: model.factor")\n\`\`\``,
  readme:
    '# Halving\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });

describe('the repository as a researcher would commit it', () => {
  it('keeps the model’s .gitignore lines and adds the default patterns once', () => {
    const merged = mergeGitignore('# mine\ndata/raw/\n*.pt\n');
    expect(merged.startsWith('# mine\ndata/raw/\n*.pt\n\n# Outputs, caches')).toBe(true);
    expect(merged.match(/^\*\.pt$/gm)).toHaveLength(1);
    expect(merged).toMatch(/^__pycache__\/$/m);
    expect(merged).toMatch(/^\*\.cover$/m);
    expect(merged).toMatch(/^checkpoints\/$/m);
    expect(mergeGitignore(merged)).toBe(merged);
  });

  it('a smoke run with repair leaves git status clean; the verify commit holds the repairs only', async () => {
    const { run, events, remove } = fakeRun();
    cleanups.push(remove);
    const result = await paperToRepository({
      paperText: paper,
      title: 'Halving',
      models: labelledCaller(answers, run),
      run,
      sandbox: await createSandbox('bubblewrap'),
      interpreter: '/usr/bin/python3',
      limits: { ...defaultLimits, timeoutMs: 60_000 },
      selfRefine: false,
      repairBudgetSteps: 4,
      makeRepairer: (repoDir) => () => {
        // Repair edits two files; the outputs of the failed run lie around it.
        writeFileSync(join(repoDir, 'helpers.py'), 'FACTOR = 0.5\n');
        writeFileSync(
          join(repoDir, 'main.py'),
          `${writesOutputs}from helpers import FACTOR\nprint("halved:", FACTOR)\n`,
        );
        return Promise.resolve({ steps: 2 });
      },
    });
    const repo = result.repository;
    expect(result.report.verify.ok).toBe(true);
    // The outputs are still there to look at; git does not see them.
    expect(existsSync(join(repo, 'results.json'))).toBe(true);
    expect(existsSync(join(repo, 'checkpoints', 'model.ckpt'))).toBe(true);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const everCommitted = git(repo, 'log', '--name-only', '--format=').split('\n').filter(Boolean);
    for (const output of [
      'checkpoints/model.ckpt',
      'outputs/metrics.json',
      '.cache/hub/weights.txt',
      'main_execution_trace.cover',
      'model.pt',
      'weights.bin',
      'results.json',
      'train.log',
      'data/raw/part0.csv',
      'docs/run-notes.md',
    ])
      expect(everCommitted).not.toContain(output);
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('verify: repairs after the smoke run\n');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(
      ['helpers.py', 'main.py'],
    );
    const gitignore = git(repo, 'show', 'HEAD:.gitignore');
    expect(gitignore).toMatch(/^outputs\/$/m);
    // The outputs the .gitignore does not name are excluded one by one, and the log says so.
    const exclude = readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude).toContain('/results.json');
    expect(exclude).toContain('/weights.bin');
    // A folder the runs wrote whole is excluded as one; one beside tracked files file by file.
    expect(exclude).toMatch(/^\/data\/$/m);
    expect(exclude).toMatch(/^\/docs\/run-notes\.md$/m);
    expect(exclude).not.toContain('helpers.py');
    // The report's file table lists the repository's source, not what the runs left.
    const listed = result.report.files.map((file) => file.path);
    expect(listed).toContain('helpers.py');
    expect(listed).toContain('.gitignore');
    expect(listed).not.toContain('results.json');
    expect(listed).not.toContain('checkpoints/model.ckpt');
    expect(result.report.binaryFiles).toBeUndefined();
    const logged = events.flatMap((event) => (event.type === 'log' ? [event.message] : []));
    expect(
      logged.some((message) =>
        message.includes('data/, docs/run-notes.md, results.json, weights.bin'),
      ),
    ).toBe(true);
  });
});
