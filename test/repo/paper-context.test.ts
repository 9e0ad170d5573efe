import { describe, expect, it } from 'vitest';
import { writeReadme } from '../../src/repo/environment.js';
import { analyzeFiles, generateFiles } from '../../src/repo/generation.js';
import { renderDesign, type Plan } from '../../src/repo/planning.js';
import type { ModelRequest } from '../../src/llm/types.js';
import { labelledCaller } from './scripted-paper-model.js';

const paper = '# Toy paper\n\nWe fit a line. PAPER-MARKER';

/** utils ← model ← main → data: main imports model and data, model imports utils. */
function planWith(imports: boolean): Plan {
  const files = [
    { path: 'utils.py', logic: 'def clip(x: float) -> float: LOGIC-UTILS', imports: [] },
    { path: 'model.py', logic: 'def fit(x: float) -> float: LOGIC-MODEL', imports: ['utils.py'] },
    { path: 'data.py', logic: 'def load() -> list[float]: LOGIC-DATA', imports: [] },
    {
      path: 'main.py',
      logic: 'reads --config, calls fit on load(): LOGIC-MAIN',
      imports: ['model.py', 'data.py'],
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
    experiments: [{ id: 'main', source: 'Table 1', description: 'the fit', overrides: [] }],
    rubric: { id: 'root', requirements: 'fit', weight: 1, sub_tasks: [] },
    dropped: [],
  };
}

const configs = { config: 'training:\n  lr: 0.1\n', smokeConfig: 'training:\n  lr: 0.2\n' };
const code: Record<string, string> = {
  'utils.py': 'def clip(x):\n    return max(0.0, x)  # CODE-UTILS\n',
  'model.py': 'from utils import clip\n\n\ndef fit(x):\n    return clip(x)  # CODE-MODEL\n',
  'data.py': 'def load():\n    return [1.0]  # CODE-DATA\n',
  'main.py': 'from data import load\nfrom model import fit\n\nprint(fit(load()[0]))  # CODE-MAIN\n',
};

function caller() {
  return labelledCaller({
    analyze: (request) => `The analysis of ${request.label ?? ''}: ANALYSIS-${request.label ?? ''}`,
    generate: (request) =>
      `\`\`\`python\n${code[(request.label ?? '').replace('generate ', '')] ?? ''}\`\`\``,
    readme: '# Toy\n\n`config.yaml` by `bash reproduce.sh`; `config_smoke.yaml` for the smoke run.',
  });
}

const user = (requests: ModelRequest[], label: string) =>
  requests.find((request) => request.label === label)?.messages[0]?.content ?? '';

describe('paper mode: each stage sees what it builds on, once', () => {
  it('shows an analysis the analyses of the files it imports, and the code the files it reaches', async () => {
    const models = caller();
    const plan = planWith(true);
    const design = renderDesign(plan);
    const analyses = await analyzeFiles(models, plan, paper, design, configs);
    await generateFiles(models, plan, { paper, design, ...configs }, analyses, {
      interpreter: 'python3',
      environment: '- Python 3',
      earlierBudgetChars: 24_000,
    });
    const { requests } = models;
    // The logic design is sent once, in the system prompt, the same for every analysis.
    const systems = new Set(
      requests.filter((request) => request.label?.startsWith('analyze')).map((r) => r.system),
    );
    expect(systems.size).toBe(1);
    expect([...systems][0]).toContain('LOGIC-MODEL');
    expect([...systems][0]).toContain('PAPER-MARKER');
    // No diagrams: the logic design is the one source of the interfaces.
    expect([...systems][0]).not.toContain('CLASS-DIAGRAM');
    expect(user(requests, 'analyze model.py')).not.toContain('LOGIC-MODEL');

    expect(user(requests, 'analyze utils.py')).toContain('imports from no other file');
    expect(user(requests, 'analyze model.py')).toContain('ANALYSIS-analyze utils.py');
    expect(user(requests, 'analyze data.py')).not.toContain('ANALYSIS-');
    const main = user(requests, 'analyze main.py');
    expect(main).toContain('ANALYSIS-analyze model.py');
    expect(main).toContain('ANALYSIS-analyze data.py');
    expect(main).not.toContain('ANALYSIS-analyze utils.py');

    // Generation's system prompt is analysis's, byte for byte: one cached prefix for both.
    const generation = requests.find((request) => request.label === 'generate main.py');
    expect(generation?.system).toBe([...systems][0]);
    expect(user(requests, 'generate data.py')).toContain('It imports no other file');
    expect(user(requests, 'generate model.py')).toContain('CODE-UTILS');
    const mainCode = user(requests, 'generate main.py');
    for (const marker of ['CODE-UTILS', 'CODE-MODEL', 'CODE-DATA'])
      expect(mainCode).toContain(marker);
  });

  it('shows every earlier analysis when the logic design lists no imports (older plans)', async () => {
    const models = caller();
    const plan = planWith(false);
    await analyzeFiles(models, plan, paper, renderDesign(plan), configs);
    const data = user(models.requests, 'analyze data.py');
    expect(data).toContain('ANALYSIS-analyze utils.py');
    expect(data).toContain('ANALYSIS-analyze model.py');
  });

  it('writes the README from the code, with the analysis stage system prompt', async () => {
    const models = caller();
    const plan = planWith(true);
    const design = renderDesign(plan);
    await analyzeFiles(models, plan, paper, design, configs);
    await writeReadme(
      models,
      plan,
      { paper, design, ...configs },
      { title: 'Toy paper', code: '### main.py\n```python\nprint(1)  # CODE-MAIN\n```' },
    );
    const readme = models.requests.find((request) => request.label === 'readme');
    const analysis = models.requests.find((request) => request.label === 'analyze main.py');
    expect(readme?.system).toBe(analysis?.system);
    expect(readme?.messages[0]?.content).toContain('CODE-MAIN');
  });
});
