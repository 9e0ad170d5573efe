import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImplementResult } from '../../src/agent/final-result.js';
import type { Exploration } from '../../src/explore/exploration.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { Run } from '../../src/runs/run.js';
import { plannerAnswer, scriptedCaller } from '../agent/scripted-caller.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';
import { experimentActions as actions } from './experiment-actions.js';

const starter = 'print("loading the data")\nprint("accuracy: 0.5")\n';
const improved = (value: number) => `print("accuracy: ${value}")\n`;

describe('codify explore --run: ideas become implement runs, ranked by what they measured', () => {
  it('confirms each metric against the baseline, runs the ideas, and traces every number in report.md', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-run-'));
    const codeDir = join(root, 'prototype');
    mkdirSync(codeDir);
    writeFileSync(join(codeDir, 'starter_code.py'), starter);
    const ideas = [
      ideaCard('Class-aware mixup'),
      ideaCard('Feature noise'),
      ideaCard('F1 tuning', {
        experimentPlan: {
          ...ideaCard('x').experimentPlan,
          metrics: [{ name: 'F1 score', direction: 'max' }],
        },
      }),
    ];
    // The judge prefers I1; the measurements will prefer I2.
    const explore = (run: Run) =>
      createScriptedCaller(
        {
          planner: [json(analysisAnswer()), json({ ideas })],
          judge: [
            json(review(5)),
            json(review(4)),
            json(review(3)),
            verdictAnswer(),
            verdictAnswer(),
            verdictAnswer(),
          ],
        },
        { run },
      ).caller;
    const experiment = () =>
      scriptedCaller({
        planner: (request, step) => {
          // the problem (with the idea) is in the planner's system prompt
          const prompt = request.system ?? '';
          const value = prompt.includes('# Feature noise') ? 0.9 : 0.6;
          return step === 1
            ? plannerAnswer('Write Script', {
                script_name: 'methodology_implementation.py',
                content: improved(value),
              })
            : plannerAnswer('Final Answer', { summary: `accuracy ${value}` });
        },
      });
    const result = await runExplore({
      settings: {
        paperPaths: [mixupPaper],
        ideas: 3,
        reviewers: 1,
        refineRounds: 0,
        budgetMinutes: 5,
        gpu: false,
        paperMaxChars: 60_000,
        experiments: {
          select: 'top:3',
          codeDir,
          sandbox: 'bubblewrap',
          python: '/usr/bin/python3',
          gpu: false,
          maxSteps: 5,
          // No network here: the experiments say so and go on without candidates.
          retrieve: {
            baseUrl: 'http://127.0.0.1:9',
            cacheDir: join(root, 'hub'),
            retries: 0,
            baseDelayMs: 1,
          },
        },
      },
      models: (run) => (run.mode === 'explore' ? explore(run) : experiment()),
      experimentActions: actions,
      host: { runsRoot: join(root, 'runs') },
    });

    const records = result.experiments ?? [];
    expect(records.map((record) => [record.idea, record.status])).toEqual([
      ['I2', 'ran'],
      ['I1', 'ran'],
      ['I3', 'skipped'],
    ]);
    expect(records[0]?.metric).toMatchObject({
      name: 'accuracy',
      goal: 'max',
      source: 'plan',
      value: 0.9,
      baseline: 0.5,
      improvement: 0.4,
    });
    expect(records[1]?.metric?.improvement).toBe(0.1);
    expect(records[2]?.reason).toContain(
      "the baseline's output shows none of the plan's metrics (F1 score)",
    );
    // The prototype folder is only read.
    expect(readdirSync(codeDir)).toEqual(['starter_code.py']);
    // The experiment's task carries the plan and the confirmed metric.
    const taskDir = join(result.run.dir, 'experiments', 'I2', 'task');
    expect(readFileSync(join(taskDir, 'methodology_description.txt'), 'utf8')).toContain(
      'accuracy: <value>',
    );
    expect(readFileSync(join(taskDir, 'starter_code_performance.txt'), 'utf8')).toMatch(
      /^accuracy: 0\.5/,
    );
    expect(readFileSync(join(taskDir, 'methodology_description.txt'), 'utf8')).not.toContain(
      'Hugging Face',
    );
    const candidates = JSON.parse(
      readFileSync(join(result.run.dir, 'experiments', 'I2', 'candidates.json'), 'utf8'),
    ) as { query: string; candidates: unknown[]; problem?: string };
    expect(candidates.query).toBe('mixup');
    expect(candidates.candidates).toEqual([]);
    expect(candidates.problem).toContain('the Hugging Face Hub could not be reached');

    // Every figure in report.md is traced to the run (result.json) or ideas.json it names.
    const exploration = JSON.parse(readFileSync(result.ideasJson, 'utf8')) as Exploration;
    const report = readFileSync(result.report ?? '', 'utf8');
    const rows = report.split('\n').filter((line) => /^\| \d+ \| I\d/.test(line));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const cells = row.split('|').map((cell) => cell.trim());
      const [, rank, idea, , , value, baseline, improvement, judge, link] = cells;
      const id = idea?.split(' ')[0] ?? '';
      expect(Number(judge)).toBe(
        Number(exploration.ideas.find((entry) => entry.id === id)?.score.toFixed(2)),
      );
      const target = /\]\(([^)]+)\)/.exec(link ?? '')?.[1];
      if (target === undefined) {
        expect([value, baseline, improvement]).toEqual(['none', 'none', 'none']);
        continue;
      }
      const run = JSON.parse(readFileSync(join(result.run.dir, target), 'utf8')) as ImplementResult;
      expect(run.runDir).toBe(dirname(join(result.run.dir, target)));
      expect(Number(value)).toBe(run.metric?.value);
      expect(Number(baseline)).toBe(run.metric?.starter);
      expect(Number(improvement)).toBeCloseTo(
        (run.metric?.value ?? NaN) - (run.metric?.starter ?? NaN),
        9,
      );
      expect(rank).toMatch(/^\d$/);
    }
    expect(report).toContain('supported: better than the baseline');
    // Why each idea ran: --run top:3 took it by the judge's rank (reviews part).
    expect(report).toContain('## Why these ideas were chosen');
    expect(report).toMatch(
      /- \*\*I\d\*\* .+: --run top:3 takes the 3 best by the judge; it ranked 1 of 3/,
    );
    const ideasMarkdown = readFileSync(result.ideasMarkdown, 'utf8');
    expect(ideasMarkdown).toContain('# Why these ideas were chosen to run');
    expect(result.exploration.chosen?.map((choice) => choice.how)).toEqual(['top', 'top', 'top']);
    const end = JSON.parse(
      readFileSync(join(result.run.dir, 'events.jsonl'), 'utf8').trim().split('\n').at(-1) ?? '{}',
    ) as { reason?: string };
    expect(end.reason).toContain(
      'best measured: I2 (accuracy +0.4 ± 0 over the baseline, paired on 5 seeds)',
    );
  });
});
