import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { repositoryFiles } from '../../src/repo/repository-files.js';
import { outsideStages } from '../../src/repo/stage-table.js';
import { readEvents } from '../../src/runs/read-events.js';
import { totalsOf } from '../../src/runs/run-totals.js';
import { defaultLimits, type ExecutionResult, type Sandbox } from '../../src/sandbox/types.js';
import { fakeRun } from './fake-run.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

const paper = `# Tripling
We triple every input with a factor of 3.`;

const answers = {
  'plan-overall':
    '## Method\ntriple\n## Data\nnone\n## Settings\nnone\n## Experiments\nTable 1\n## Hyperparameters\nfactor 3\n## Metrics\nnone\n## Unclear\nnothing',
  'plan-design': designAnswer(
    {
      implementationApproach: 'plain Python',
      files: [{ path: 'main.py', purpose: 'entry point' }],
      classDiagram: 'classDiagram\n  class Main',
      sequenceDiagram: 'sequenceDiagram\n  participant M as main',
    },
    {
      requiredPackages: [],
      fileLogic: [{ path: 'main.py', logic: 'prints the tripled value' }],
      order: ['main.py'],
      sharedKnowledge: 'factor',
      entryPoint: 'main.py',
    },
  ),
  'plan-config': settingsAnswer({
    entries: [{ key: 'model.factor', value: 3, evidence: 'with a factor of 3' }],
    smokeOverrides: [{ key: 'model.factor', value: 1 }],
  }),
  ...checklist,
  'write main.py': '```python\nprint(3 * 2)\n```',
  readme:
    '# Tripling\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
  repair: 'I would change main.py.',
  'before the stages': 'an answer outside any stage',
};

/** A sandbox whose first smoke run fails and every later one succeeds. */
function failingOnce(): Sandbox {
  let runs = 0;
  return {
    kind: 'none',
    run: (request): Promise<ExecutionResult> => {
      runs += 1;
      writeFileSync(request.outputPath, runs === 1 ? 'Traceback: boom' : '6');
      return Promise.resolve({
        exitCode: runs === 1 ? 1 : 0,
        signal: null,
        timedOut: false,
        memoryExceeded: false,
        durationMs: 5,
        output: runs === 1 ? 'Traceback: boom' : '6',
        outputBytes: 1,
        truncated: false,
        outputPath: request.outputPath,
        blocked: [],
      });
    },
  };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe("the paper report's tables", () => {
  it('counts the repair calls in verify, and every row adds up to the run’s totals', async () => {
    const { run, remove } = fakeRun();
    cleanups.push(remove);
    const models = labelledCaller(answers, run);
    await models.call({
      role: 'planner',
      messages: [{ role: 'user', content: 'hello' }],
      label: 'before the stages',
    });
    mkdirSync(join(run.dir, 'outputs'), { recursive: true });
    const result = await paperToRepository({
      paperText: paper,
      title: 'Tripling',
      models,
      run,
      sandbox: failingOnce(),
      interpreter: '/usr/bin/python3',
      limits: defaultLimits,
      selfRefine: false,
      repairBudgetSteps: 5,
      makeRepairer: () => async () => {
        // The research agent's calls, made while verify runs.
        for (const step of [1, 2, 3])
          await models.call({
            role: 'expert',
            messages: [{ role: 'user', content: `step ${step}` }],
            label: `repair ${step}`,
          });
        return { steps: 3 };
      },
    });
    const rows = new Map(result.report.stages.map((row) => [row.stage, row]));
    expect(rows.get('verify')).toMatchObject({ calls: 3, inputTokens: 300, outputTokens: 150 });
    expect(rows.get(outsideStages)).toMatchObject({ calls: 1, inputTokens: 100 });
    expect(result.report.stages.at(-1)?.stage).toBe(outsideStages);
    // One accounting: the table's total is the run's, from the same llm-end events.
    const totals = totalsOf(readEvents(run.dir).events);
    expect(result.report.totals).toMatchObject({
      calls: totals.llmCalls,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      cachedInputTokens: totals.cachedInputTokens,
    });
    expect(result.report.totals.costUsd).toBeCloseTo(totals.costUsd, 10);
    expect(result.report.totals.calls).toBe(models.requests.length);
    const markdown = readFileSync(result.reportPath, 'utf8');
    expect(markdown).toMatch(/^\| verify \| 3 \| 300 \| 120 \| 150 \|/m);
    expect(markdown).toContain(`| total | ${models.requests.length} |`);
  });

  it('lists source files by lines and binaries apart by size', () => {
    const root = mkdtempSync(join(tmpdir(), 'codify-files-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'main.py'), 'print(1)\nprint(2)\n');
    writeFileSync(join(root, 'figure.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    writeFileSync(join(root, 'weights.npy'), Buffer.from([0x93, 0xff, 0xfe, 0x41]));
    expect(repositoryFiles(root, false)).toEqual({
      files: [{ path: 'main.py', lines: 2 }],
      binaryFiles: [
        { path: 'figure.png', bytes: 8 },
        { path: 'weights.npy', bytes: 4 },
      ],
    });
  });
});
