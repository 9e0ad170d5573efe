import { describe, expect, it } from 'vitest';
import { planRepository } from '../../src/repo/planning.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

const paper = 'We train for 3 epochs with a learning rate of 0.1 on the digits data.';
const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;
const architecture = (files: string[]) => ({
  implementationApproach: 'numpy',
  files: files.map((path) => ({ path, purpose: `holds ${path}` })),
  classDiagram: 'classDiagram\n  class A',
  sequenceDiagram: 'sequenceDiagram\n  participant M',
});
const logic = (files: string[]) => ({
  requiredPackages: [],
  fileLogic: files.map((path) => ({ path, logic: 'does it' })),
  order: files,
  sharedKnowledge: '',
  entryPoint: 'main.py',
});
const config = {
  entries: [{ key: 'training.epochs', value: 3, evidence: 'We train for 3 epochs' }],
  smokeOverrides: [{ key: 'training.epochs', value: 1 }],
};
const overall =
  '## Method\nm\n## Data\nd\n## Settings\ns\n## Experiments\nTable 1\n## Hyperparameters\nh\n## Metrics\nx\n## Unclear\nu';

describe('--self-refine', () => {
  it('critiques the plan and uses the revised design and config', async () => {
    const models = labelledCaller({
      'plan-overall': overall,
      'plan-design': designAnswer(architecture(['main.py']), logic(['main.py'])),
      'plan-config': settingsAnswer(config),
      ...checklist,
      'self-refine-critique': json({
        problems: [{ where: 'architecture', problem: 'no data loading file', fix: 'add data.py' }],
      }),
      // A revised design whose order forgets the new file is re-asked with the reason.
      'revise-design': (_request, attempt) =>
        designAnswer(
          architecture(['data.py', 'main.py']),
          attempt === 1
            ? { ...logic(['data.py', 'main.py']), order: ['main.py'] }
            : logic(['data.py', 'main.py']),
        ),
      'revise-config': settingsAnswer({
        ...config,
        entries: [
          ...config.entries,
          { key: 'training.learning_rate', value: 0.1, evidence: 'a learning rate of 0.1' },
        ],
      }),
    });
    const plan = await planRepository(models, paper, { selfRefine: true });
    expect(plan.architecture.files.map((file) => file.path)).toEqual(['data.py', 'main.py']);
    expect(plan.logic.order).toEqual(['data.py', 'main.py']);
    expect(plan.config.entries.map((entry) => entry.key)).toEqual([
      'training.epochs',
      'training.learning_rate',
    ]);
    const labels = models.requests.map((request) => request.label);
    expect(labels).toEqual([
      'plan-overall',
      'plan-design',
      'plan-config',
      'self-refine-critique',
      'revise-design',
      'revise-design',
      'revise-config',
    ]);
    const fixes = models.requests[4]?.messages.at(-1)?.content ?? '';
    expect(fixes).toContain('architecture: no data loading file → add data.py');
    expect(models.requests[5]?.messages.at(-1)?.content).toContain('order: misses data.py');
  });

  it('keeps the plan when the critique finds nothing', async () => {
    const models = labelledCaller({
      'plan-overall': overall,
      'plan-design': designAnswer(architecture(['main.py']), logic(['main.py'])),
      'plan-config': settingsAnswer(config),
      ...checklist,
      'self-refine-critique': json({ problems: [] }),
    });
    const plan = await planRepository(models, paper, { selfRefine: true });
    expect(plan.architecture.files).toHaveLength(1);
    expect(models.requests.at(-1)?.label).toBe('self-refine-critique');
  });
});
