import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confirmMetric } from '../../src/explore/experiments/confirm-metric.js';
import { buildExperimentTask } from '../../src/explore/experiments/experiment-task.js';
import { metricPattern, planMetric } from '../../src/explore/experiments/metric-pattern.js';
import {
  rankByMeasurement,
  type ExperimentRecord,
} from '../../src/explore/experiments/run-experiments.js';
import { selectIdeas } from '../../src/explore/experiments/select-ideas.js';
import type { ExploredIdea } from '../../src/explore/exploration.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { loadTask } from '../../src/tasks/load-task.js';
import { parseMetric } from '../../src/tasks/parse-metric.js';
import { problemStatement } from '../../src/tasks/problem-statement.js';
import { ideaCard, mixupPaper } from './explore-fixtures.js';

const idea = (id: string, score: number): ExploredIdea => ({
  id,
  card: ideaCard(id),
  earlierVersions: [],
  reviews: [],
  score,
  novelty: [],
});

describe('experiment parts', () => {
  it('--run picks the top K by judge score, or ids, and names what does not exist', () => {
    const ranked = [idea('I2', 4.5), idea('I1', 4), idea('I3', 2)];
    expect(selectIdeas('top:2', ranked).map((entry) => entry.id)).toEqual(['I2', 'I1']);
    expect(selectIdeas('1', ranked).map((entry) => entry.id)).toEqual(['I2']);
    expect(selectIdeas('i3, I1', ranked).map((entry) => entry.id)).toEqual(['I3', 'I1']);
    expect(() => selectIdeas('I9', ranked)).toThrow('--run I9: no idea I9; give top:K');
  });

  it("reads a plan's metric whatever the script calls it, and confirms it against the baseline", () => {
    const pattern = metricPattern('log-loss');
    const output = 'epoch 1 Test_Log_Loss = 0.31\nepoch 2 test log loss: 2.5e-1\n';
    expect(parseMetric(output, { name: 'log-loss', pattern, goal: 'min' })?.value).toBe(0.25);
    const card = ideaCard('x', {
      experimentPlan: {
        ...ideaCard('x').experimentPlan,
        metrics: [
          { name: 'f1', direction: 'max' },
          { name: 'log-loss', direction: 'min' },
        ],
      },
    });
    expect(confirmMetric(card, output, undefined)).toMatchObject({
      metric: { name: 'log-loss', goal: 'min' },
      source: 'plan',
      reading: { value: 0.25 },
    });
    // Another metric whose name ends in the plan's is not read as it, whatever the order.
    const accuracy = { name: 'accuracy', pattern: metricPattern('accuracy'), goal: 'max' as const };
    const both = 'accuracy: 0.91\nno_decay_accuracy: 0.80\nbaseline-accuracy = 0.7\n';
    expect(parseMetric(both, accuracy)?.value).toBe(0.91);
    expect(parseMetric('Validation accuracy: 0.88\n', accuracy)?.value).toBe(0.88);
    expect(parseMetric('no_decay_accuracy: 0.80\n', accuracy)).toBeUndefined();
    const own = { name: 'score', pattern: 'SCORE (\\d+)', goal: 'max' as const };
    expect(confirmMetric(card, 'SCORE 7', own)).toMatchObject({
      source: 'task.json',
      reading: { value: 7 },
    });
    expect(confirmMetric(card, 'nothing', undefined)).toEqual({
      problem: `the baseline's output shows none of the plan's metrics (f1, log-loss); make the starter print "<metric>: <value>"`,
    });
  });

  it("tells the experiment's agent the plan's metric in words, kept in task.json as in_words", async () => {
    const root = mkdtempSync(join(tmpdir(), 'codify-metric-words-'));
    const destination = await buildExperimentTask({
      codeDir: 'examples/explore/prototype',
      destination: join(root, 'task'),
      methodology: 'Standardize the features.',
      metric: planMetric({ name: 'log-loss', direction: 'min' }),
    });
    const task = await loadTask(destination);
    expect(task.metric?.inWords).toContain('the number in the last `log-loss: <number>`');
    const statement = problemStatement(task);
    expect(statement).toContain(
      'The score is the metric "log-loss" (lower is better): the number in the last `log-loss: <number>` (or `log-loss = <number>`) the output prints;',
    );
    expect(statement).not.toContain(task.metric?.pattern ?? '');
    // a task.json metric of the user's own is shown by its pattern
    const own = await loadTask('examples/yona-digits');
    expect(problemStatement(own)).toContain(
      `the regular expression \`${own.metric?.pattern ?? ''}\` in the output`,
    );
  });

  it('ranks by measured improvement, unmeasured ideas last by judge score', () => {
    const record = (
      idea: string,
      improvement: number | null,
      judgeScore: number,
    ): ExperimentRecord => ({
      idea,
      title: idea,
      hypothesis: '',
      judgeScore,
      status: 'ran',
      reason: '',
      ...(improvement === null
        ? {}
        : {
            metric: { name: 'm', goal: 'max', source: 'plan', value: 1, baseline: 1, improvement },
          }),
    });
    expect(
      rankByMeasurement([
        record('I1', -0.1, 5),
        record('I2', null, 4),
        record('I3', 0.2, 1),
        record('I4', null, 4.5),
      ]).map((entry) => entry.idea),
    ).toEqual(['I3', 'I1', 'I4', 'I2']);
  });

  it('refuses --code folders that cannot hold an experiment before any run starts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-code-'));
    const empty = join(root, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'no code here');
    const settings = {
      paperPaths: [mixupPaper],
      ideas: 1,
      reviewers: 1,
      refineRounds: 0,
      budgetMinutes: 5,
      gpu: false,
      paperMaxChars: 60_000,
    };
    const models = () => {
      throw new Error('no model may be built');
    };
    await expect(
      runExplore({
        settings: {
          ...settings,
          experiments: { select: 'top:1', codeDir: empty, sandbox: 'none', gpu: false },
        },
        models,
        host: { runsRoot: join(root, 'runs') },
      }),
    ).rejects.toThrow(/--code: .*empty cannot hold experiments: starter_code\.py is missing/);
    await expect(
      runExplore({
        settings: {
          ...settings,
          experiments: { select: 'best', codeDir: empty, sandbox: 'none', gpu: false },
        },
        models,
        host: { runsRoot: join(root, 'runs') },
      }),
    ).rejects.toThrow('--run best: give top:K, a number K, or idea ids such as I1,I3');
  });
});
