import { describe, expect, it } from 'vitest';
import { writeReadme } from '../../src/repo/environment.js';
import { paperForFile, splitWrittenFile, writeFiles } from '../../src/repo/generation.js';
import { laterStageContext, overriddenSettings } from '../../src/repo/later-context.js';
import type { Plan } from '../../src/repo/planning.js';
import type { ModelRequest } from '../../src/llm/types.js';
import { labelledCaller } from './scripted-paper-model.js';

const paper = [
  '# Toy paper',
  '',
  '## 1 Introduction',
  '',
  'Lines are everywhere. INTRO-MARKER',
  '',
  '## 2 Method',
  '',
  'We fit a line. METHOD-MARKER',
  '',
  '### 2.1 Clipping',
  '',
  'Values are clipped at zero. CLIP-MARKER',
  '',
  '## 3 Data',
  '',
  'One point at 1.0. DATA-MARKER',
].join('\n');
const condensed = `${paper}\nCONDENSED-MARKER`;

/** utils ← model ← main → data: main imports model and data, model imports utils. */
function planWith(imports: boolean): Plan {
  const files = [
    {
      path: 'utils.py',
      logic: 'def clip(x: float) -> float: LOGIC-UTILS',
      imports: [],
      paperSections: ['2.1 Clipping'],
    },
    {
      path: 'model.py',
      logic: 'def fit(x: float) -> float: LOGIC-MODEL',
      imports: ['utils.py'],
      paperSections: ['Method'],
    },
    {
      path: 'data.py',
      logic: 'def load() -> list[float]: LOGIC-DATA',
      imports: [],
      paperSections: ['Section 3', 'Appendix Z'],
    },
    {
      path: 'main.py',
      logic: 'reads --config, calls fit on load(): LOGIC-MAIN',
      imports: ['model.py', 'data.py'],
      paperSections: [],
    },
  ];
  return {
    overall: '# Method\nfit',
    architecture: {
      implementationApproach: 'numpy only',
      files: files.map((file) => ({ path: file.path, purpose: `the ${file.path} part` })),
      classDiagram: 'classDiagram\n class CLASS-DIAGRAM',
      sequenceDiagram: 'sequenceDiagram\n participant SEQUENCE-DIAGRAM',
    },
    logic: {
      requiredPackages: [],
      fileLogic: files.map((file) => (imports ? file : { path: file.path, logic: file.logic })),
      order: files.map((file) => file.path),
      sharedKnowledge: 'config keys under training.',
      entryPoint: 'main.py',
    },
    config: {
      entries: [{ key: 'training.lr', value: 0.1, evidence: 'a learning rate of 0.1' }],
      smokeOverrides: [{ key: 'training.lr', value: 0.2 }],
    },
    experiments: [
      { id: 'main', source: 'Table 1', description: 'the fit', overrides: [] },
      {
        id: 'fast',
        source: 'Table 2',
        description: 'a faster fit',
        overrides: [{ key: 'training.lr', value: 0.5 }],
      },
    ],
    rubric: { id: 'root', requirements: 'fit', weight: 1, sub_tasks: [] },
    dropped: [],
  };
}

const code: Record<string, string> = {
  'utils.py': 'def clip(x):\n    return max(0.0, x)  # CODE-UTILS\n',
  'model.py': 'from utils import clip\n\n\ndef fit(x):\n    return clip(x)  # CODE-MODEL\n',
  'data.py': 'def load():\n    return [1.0]  # CODE-DATA\n',
  'main.py': 'from data import load\nfrom model import fit\n\nprint(fit(load()[0]))  # CODE-MAIN\n',
};

function caller() {
  return labelledCaller({
    write: (request) => {
      const path = (request.label ?? '').replace('write ', '');
      return `## Analysis\nANALYSIS-${path}\n\n## Code\n\`\`\`python\n${code[path] ?? ''}\`\`\``;
    },
    readme: '# Toy\n\n`config.yaml` by `bash reproduce.sh`; `config_smoke.yaml` for the smoke run.',
  });
}

const user = (requests: ModelRequest[], label: string) =>
  requests.find((request) => request.label === label)?.messages[0]?.content ?? '';

const options = { interpreter: 'python3', environment: '- Python 3', earlierBudgetChars: 24_000 };

describe('paper mode: each file is written from what it builds on, once', () => {
  it('shares one system prompt without the paper; each request holds its logic, sections and imports', async () => {
    const models = caller();
    const plan = planWith(true);
    const written = await writeFiles(
      models,
      plan,
      laterStageContext(plan),
      { full: paper, condensed },
      options,
    );
    const { requests } = models;
    const systems = new Set(requests.map((request) => request.system));
    expect(systems.size).toBe(1);
    const system = [...systems][0] ?? '';
    // The shared part: design summary, both configs; not the paper, no file's logic, no diagrams.
    expect(system).toContain('config keys under training.');
    expect(system).toContain('- model.py (imports utils.py)');
    expect(system).toContain('lr: 0.1');
    expect(system).toContain('training.lr: 0.2 (config.yaml: 0.1)');
    expect(system).toContain('- training.lr: 0.5 (fast)');
    for (const absent of ['METHOD-MARKER', 'LOGIC-MODEL', 'CLASS-DIAGRAM'])
      expect(system).not.toContain(absent);

    const model = user(requests, 'write model.py');
    expect(model).toContain('LOGIC-MODEL');
    expect(model).not.toContain('LOGIC-UTILS');
    // "Method" comes with its subsection, and nothing else of the paper.
    expect(model).toContain('METHOD-MARKER');
    expect(model).toContain('CLIP-MARKER');
    expect(model).not.toContain('INTRO-MARKER');
    expect(model).toContain('CODE-UTILS');
    expect(user(requests, 'write utils.py')).toContain('CLIP-MARKER');
    expect(user(requests, 'write utils.py')).not.toContain('METHOD-MARKER');
    // A name matching no heading is said; the others are still shown.
    const data = user(requests, 'write data.py');
    expect(data).toContain('DATA-MARKER');
    expect(data).toContain('"Appendix Z" matched no heading');
    expect(data).toContain('It imports no other file');
    // The entry point names no section, reaches every file and gets the experiment list.
    const main = user(requests, 'write main.py');
    expect(main).toContain('The design names no section of the paper for it.');
    for (const marker of ['CODE-UTILS', 'CODE-MODEL', 'CODE-DATA']) expect(main).toContain(marker);
    expect(main).toContain('fast (Table 2): a faster fit');
    expect(model).not.toContain('a faster fit');
    // The analysis before the code is kept apart from it.
    expect(written.find((file) => file.path === 'model.py')).toMatchObject({
      analysis: '## Analysis\nANALYSIS-model.py',
      content: code['model.py'],
    });
  });

  it('names the settings experiments change once per key, a long value by its size', () => {
    const plan = planWith(true);
    const variant = (name: string) => [
      {
        name,
        label: `(A) ${name}, the same parameter count`,
        overrides: { model: { heads: name.length } },
        paper: { exact: 91.5, token: 95.5 },
      },
    ];
    plan.experiments.push(
      ...['heads_1', 'heads_8'].map((name) => ({
        id: `table3-${name}`,
        source: 'Table 3',
        description: name,
        overrides: [
          { key: 'training.lr', value: 0.5 },
          { key: 'ablation.variants', value: variant(name) },
        ],
      })),
    );
    expect(overriddenSettings(plan).split('\n')).toEqual([
      '- training.lr: 0.5 (fast, table3-heads_1, table3-heads_8)',
      "- ablation.variants: a value of its own in each of table3-heads_1, table3-heads_8 (a list of 1 item; the experiment list, in the entry point's request, shows each whole)",
    ]);
  });

  it('shows the condensed paper to a file whose plan names no sections (older plans)', () => {
    const plan = planWith(false);
    const text = paperForFile(plan, 'model.py', { full: paper, condensed });
    expect(text).toContain('CONDENSED-MARKER');
    expect(text).toContain('the design names no sections for this file');
  });

  it('splits an answer into the analysis and the longest python block', () => {
    const answer =
      'The signature is:\n```python\ndef f(x): ...\n```\nthen it returns x.\n\n### The code\n```python\ndef f(x):\n    return x\n```\n';
    expect(splitWrittenFile(answer)).toEqual({
      analysis: 'The signature is:\n```python\ndef f(x): ...\n```\nthen it returns x.',
      code: 'def f(x):\n    return x\n',
    });
    expect(splitWrittenFile('no code')).toBeUndefined();
  });

  it('writes the README from the code, with the write stage system prompt', async () => {
    const models = caller();
    const plan = planWith(true);
    const context = laterStageContext(plan);
    await writeFiles(models, plan, context, { full: paper, condensed }, options);
    await writeReadme(models, plan, context, {
      title: 'Toy paper',
      code: '### main.py\n```python\nprint(1)  # CODE-MAIN\n```',
    });
    const readme = models.requests.find((request) => request.label === 'readme');
    const write = models.requests.find((request) => request.label === 'write main.py');
    expect(readme?.system).toBe(write?.system);
    expect(readme?.messages[0]?.content).toContain('CODE-MAIN');
  });
});
