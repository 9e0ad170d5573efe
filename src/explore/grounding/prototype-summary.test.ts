import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/index.js';
import { loadTask } from '../../tasks/load-task.js';
import type { MeasuredBaseline } from '../experiments/experiment-context.js';
import { buildExperimentTask } from '../experiments/experiment-task.js';
import { summarizePrototype } from './prototype-summary.js';

/** A prototype with a task.json metric and a CSV, and its baseline as measured. */
async function baselineOf(
  output: string,
  ran: boolean,
): Promise<{ codeDir: string; baseline: MeasuredBaseline }> {
  const codeDir = join(mkdtempSync(join(tmpdir(), 'prototype-summary-')), 'code');
  mkdirSync(codeDir);
  writeFileSync(
    join(codeDir, 'starter_code.py'),
    'import pandas as pd\nframe = pd.read_csv("train.csv")\nprint("val_loss = 0.42")\n',
  );
  writeFileSync(join(codeDir, 'train.csv'), 'x,y\n'.repeat(600));
  writeFileSync(
    join(codeDir, 'task.json'),
    JSON.stringify({ metric: { name: 'val_loss', pattern: 'val_loss = ([0-9.]+)', goal: 'min' } }),
  );
  const task = await loadTask(
    await buildExperimentTask({
      codeDir,
      destination: join(codeDir, '..', 'task'),
      methodology: 'x\n',
    }),
  );
  return {
    codeDir,
    baseline: {
      task,
      interpreter: '/usr/bin/python3',
      sandbox: await createSandbox('none'),
      output,
      outputPath: join(codeDir, 'out.txt'),
      ran,
      exitCode: ran ? 0 : 1,
      durationMs: 1234,
    },
  };
}

describe('the prototype summary', () => {
  it("names the task.json metric, the line printed, the data file's size and the run time", async () => {
    const { codeDir, baseline } = await baselineOf('epoch 1\nval_loss = 0.42\n', true);
    const summary = await summarizePrototype(baseline, codeDir, 'CPU only, no GPU');
    expect(summary.text).toContain('- Files: starter_code.py (78 B), task.json (');
    expect(summary.text).toContain('train.csv (2.3 KB)');
    expect(summary.text).toContain(
      '- Metric: val_loss (lower is better), as task.json reads it from the output; the baseline printed `val_loss = 0.42`',
    );
    expect(summary.text).toContain('the code loads `read_csv("train.csv")`');
    expect(summary.text).toMatch(/- Compute: CPU only, no GPU; Python 3\.\d+\.\d+ with pandas/);
    expect(summary.text).toContain('- Baseline: ran unchanged in 1.2 s');
    expect(summary.text).toContain(': val_loss 0.42');
  });

  it('says so when the baseline did not run, with the end of its output', async () => {
    const { codeDir, baseline } = await baselineOf('Traceback\nKeyError: y\n', false);
    const summary = await summarizePrototype(baseline, codeDir, 'CPU only, no GPU');
    expect(summary.text).toContain(
      '- Baseline: did not run (exit 1, after 1.2 s); the last lines of its output: Traceback / KeyError: y',
    );
    expect(summary.printedLines).toEqual([]);
  });

  it('names a big folder by its first 30 files and a count', async () => {
    const { codeDir, baseline } = await baselineOf('val_loss = 0.42\n', true);
    mkdirSync(join(codeDir, 'shards'));
    for (let index = 10; index < 50; index += 1) {
      writeFileSync(join(codeDir, 'shards', `part-${index}.csv`), '1\n');
    }
    const summary = await summarizePrototype(baseline, codeDir, 'CPU only, no GPU');
    expect(summary.text).toContain('- Files: shards/part-10.csv (2 B), ');
    expect(summary.text).toContain('shards/part-39.csv (2 B) and 13 more\n');
    expect(summary.text).toContain('shards/part-39.csv (2 B) and 11 more\n- Compute');
  });
});
