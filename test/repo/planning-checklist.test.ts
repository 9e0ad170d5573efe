import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  overallPlanSection,
  parseChecklistAndPlan,
  planRepository,
} from '../../src/repo/planning.js';
import { judgedFiles } from '../../src/repo/self-check.js';
import { designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

const plan =
  '## Method\nridge\n## Data\ndigits\n## Settings\nfit\n## Experiments\nTable 1\n## Hyperparameters\nalpha 0.5\n## Metrics\naccuracy\n## Unclear\nnothing';
const rubric = {
  id: 'root',
  requirements: 'Ridge on digits is reproduced',
  weight: 1,
  sub_tasks: [
    {
      id: 'ridge',
      requirements: 'Ridge is fitted with alpha 0.5',
      weight: 1,
      sub_tasks: [],
      task_category: 'Code Development',
    },
  ],
};
const checklist = `\`\`\`json\n${JSON.stringify(rubric, null, 2)}\n\`\`\``;

describe('the first planning answer: the checklist, then the plan', () => {
  it('reads one section of the plan up to the next heading of its level', () => {
    const nested =
      '# Plan\n## Method\nridge\n## Unclear\n- the split seed\n### Note\nkept\n## Extra\nx';
    expect(overallPlanSection(nested, 'Unclear')).toBe('- the split seed\n### Note\nkept');
    expect(overallPlanSection(plan, 'Unclear')).toBe('nothing');
    expect(overallPlanSection('## Method\nridge', 'Unclear')).toBe('');
    // A sub-heading that happens to start with the name is not the section.
    const early = '## Data\n### Unclear labels\nsome\n## Unclear\n- the seed\n## Extra\nx';
    expect(overallPlanSection(early, 'Unclear')).toBe('- the seed');
  });

  it('takes the checklist from the first ```json block and the plan from what follows', () => {
    expect(parseChecklistAndPlan(`The checklist:\n${checklist}\n\n${plan}`)).toEqual({
      value: { rubric, overall: plan },
    });
    expect(parseChecklistAndPlan(plan)).toContain('holds no ```json block');
    expect(parseChecklistAndPlan(`\`\`\`json\n{"id": "root"}\n\`\`\`\n${plan}`)).toContain(
      'the checklist does not fit: requirements',
    );
    // Sections named inside the checklist do not count for the plan.
    expect(parseChecklistAndPlan(`${checklist}\n## Method\nridge`)).toContain(
      'the plan lacks the section(s) Data',
    );
  });

  it('keeps the checklist out of the conversation the later questions continue', async () => {
    const models = labelledCaller({
      'plan-overall': `${checklist}\n\n${plan}`,
      'plan-design': designAnswer(
        {
          implementationApproach: 'ridge',
          files: [{ path: 'main.py', purpose: 'fits' }],
          classDiagram: 'classDiagram\n  class Main',
          sequenceDiagram: 'sequenceDiagram\n  A->>B: fit',
        },
        {
          fileLogic: [{ path: 'main.py', logic: 'fits ridge', imports: [], paperSections: [] }],
          order: ['main.py'],
          requiredPackages: [],
          sharedKnowledge: 'none',
          entryPoint: 'main.py',
        },
      ),
      'plan-config': settingsAnswer({
        entries: [{ key: 'ridge.alpha', value: 0.5, evidence: 'alpha of 0.5' }],
        smokeOverrides: [{ key: 'ridge.alpha', value: 1 }],
      }),
    });
    const planned = await planRepository(models, '# Ridge\n\nWe use an alpha of 0.5.', {
      selfRefine: false,
    });
    expect(planned.rubric).toEqual(rubric);
    expect(planned.overall).toBe(plan);
    expect(models.requests.map((request) => request.label)).toEqual([
      'plan-overall',
      'plan-design',
      'plan-config',
    ]);
    const kept = models.requests[1]?.messages[1];
    expect(kept?.role).toBe('assistant');
    expect(kept?.content).toBe(`(The reproduction checklist is kept apart.)\n\n${plan}`);
    expect(models.requests[2]?.messages[1]?.content).toBe(kept?.content);
    // Each question is marked as the end of the prefix the next one continues, and only it.
    for (const request of models.requests)
      expect(request.messages.map((message) => message.cacheMark === true)).toEqual(
        request.messages.map((_message, index) => index === request.messages.length - 1),
      );
  });
});

describe("the self-check judge's view of the repository", () => {
  it('is the code and configs: not the planning notes, not the tests', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codify-judged-'));
    try {
      for (const path of [
        'main.py',
        'config.yaml',
        'configs/table1.yaml',
        'docs/design.md',
        'tests/test_main.py',
        'test_model.py',
      ]) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), 'x = 1\n');
      }
      expect(
        judgedFiles(dir)
          .map((file) => file.path)
          .sort(),
      ).toEqual(['config.yaml', 'configs/table1.yaml', 'main.py']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
