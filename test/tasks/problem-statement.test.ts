import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask } from '../../src/tasks/load-task.js';
import {
  agentDelivery,
  filesInStatement,
  problemStatement,
} from '../../src/tasks/problem-statement.js';
import { fixtureTask } from './fixture-paths.js';

describe('problemStatement', () => {
  it('holds the methodology, the task files, the output name and how it is measured', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    const statement = problemStatement(task);
    expect(statement).toContain('# Task: threshold-classifier');
    expect(statement).toContain(task.files.methodology.trim());
    expect(statement).toContain('## The dataset\n\ndata.csv holds one feature');
    expect(statement).toContain('## The method as pseudocode\n\nthreshold = mean(train features)');
    expect(statement).toContain('Accuracy is the share of test rows');
    expect(statement).toContain('subpart_2_1.py\n\n```python\ndef predict(x, cut):');
    // numbered as Inspect Script Lines numbers files, so "line 3" in a task means the same line
    expect(statement).toContain('With its line numbers');
    expect(statement).toMatch(/```\n {0,2}1: import csv\n {0,2}2: /);
    expect(statement).toContain('Write your implementation to `methodology_implementation.py`');
    expect(statement).toContain('`python methodology_implementation.py`');
    expect(statement).toContain('"accuracy" (higher is better)');
    expect(statement).toContain('`^accuracy: ([0-9.]+)`');
    expect(statement).not.toContain('{{');
    expect(statement.indexOf('subpart_2_1.py')).toBeLessThan(statement.indexOf('subpart_10_1.py'));
    // reference subparts are shown once, in their own sections
    expect(statement).not.toContain('Other modules of the task');
  });

  it('shows the short modules of the task numbered and names the long ones', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    const dir = await mkdtemp(join(tmpdir(), 'codify-modules-'));
    await writeFile(join(dir, 'model.py'), 'import torch\n\n\ndef build():\n    return 1\n');
    await writeFile(
      join(dir, 'data.py'),
      Array.from({ length: 400 }, (_, i) => `x${i} = ${i}`).join('\n'),
    );
    task.dir = dir;
    task.inputFiles = [...task.inputFiles, 'model.py', 'data.py'];
    const statement = problemStatement(task);
    expect(statement).toContain('## Other modules of the task (read-only)');
    expect(statement).toContain(
      '### `model.py` (5 lines)\n\n```\n1: import torch\n2: \n3: \n4: def build():',
    );
    expect(statement).toContain('- `data.py`: 400 lines, not shown');
    expect(statement).not.toContain('x399 = 399');
    await rm(dir, { recursive: true, force: true });
  });

  it('mentions the starter performance and a lower-is-better goal', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    task.metric = { name: 'loss', pattern: 'loss: (\\S+)', goal: 'min' };
    task.files.starterPerformance = 'loss: 0.42';
    task.args = ['--epochs', '3'];
    const statement = problemStatement(task);
    expect(statement).toContain('"loss" (lower is better)');
    expect(statement).toContain('The starter code achieves: loss: 0.42');
    task.files.starterPerformance = 'The starter code reaches loss 0.42 after 3 epochs.';
    const worded = problemStatement(task);
    expect(worded).toContain('The starter code reaches loss 0.42 after 3 epochs.');
    expect(worded).not.toContain('achieves: The starter');
    expect(statement).toContain('`python methodology_implementation.py --epochs 3`');
  });

  it('ends the stated figure with a full stop before codify says how it measured it', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    task.files.starterPerformance =
      'accuracy: 0.9563\n\nMeasured by codify: `python starter_code.py` exited with code 0 after 4.7 s.\n';
    expect(problemStatement(task)).toContain(
      'The starter code achieves: accuracy: 0.9563. Measured by codify: `python starter_code.py`',
    );
  });

  it('fits "What to deliver" to a few steps and to a single answer', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    const agent = problemStatement(task, agentDelivery(50));
    expect(agent).toBe(problemStatement(task));
    expect(agent).toContain(
      'saves\n  the result as `methodology_implementation.py` (Edit Script with script_name `starter_code.py`, save_name',
    );
    const few = problemStatement(task, agentDelivery(4));
    expect(few).toContain('## What to deliver in 4 steps');
    expect(few).toContain('save_name `methodology_implementation.py`: no Copy File needed');
    expect(few).toContain('Print the results as the method');
    expect(few).not.toContain('the way results are printed');
    expect(few).toContain('"accuracy" (higher is better)');
    const single = problemStatement(task, { kind: 'single-call' });
    expect(single).toContain('You have this one answer and no actions');
    expect(single).not.toMatch(/Copy File|Execute Script|final answer/);
    expect(single).toContain('"accuracy" (higher is better)');
  });

  it('names the files it shows whole, so the single-call prompt does not repeat them', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    const shown = filesInStatement(task);
    expect(shown).toEqual(expect.arrayContaining(['methodology_description.txt', task.entrypoint]));
    for (const subpart of task.files.subparts) expect(shown).toContain(subpart.name);
    expect(shown).not.toContain('task.json');
  });

  it('says so when the task has no metric', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    delete task.metric;
    expect(problemStatement(task)).toContain('This task declares no metric');
  });

  it('uses the task’s problem_statement.txt instead when there is one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codify-statement-'));
    try {
      await cp(fixtureTask('good-task'), dir, { recursive: true });
      await writeFile(join(dir, 'problem_statement.txt'), 'Just make it better, write out.py.\n');
      const task = await loadTask(dir);
      expect(problemStatement(task)).toBe('Just make it better, write out.py.\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
