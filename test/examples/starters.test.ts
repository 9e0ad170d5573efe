import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const python = '/usr/bin/python3';
const exampleNames = ['yona-digits', 'flag-graph', 'attribute-batching'];

interface ExampleTaskJson {
  name: string;
  entrypoint: string;
  output: string;
  timeout_s: number;
  metric: { name: string; pattern: string; goal: string };
  python: { requires: string[] };
  network: boolean;
}

async function readTaskJson(folder: string): Promise<ExampleTaskJson> {
  const text = await readFile(path.join(folder, 'task.json'), 'utf8');
  return JSON.parse(text) as ExampleTaskJson;
}

beforeAll(async () => {
  try {
    await run(python, ['-c', 'import numpy, torch, sklearn'], { timeout: 60_000 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${python} cannot import numpy, torch and sklearn, which the example starters need. ` +
        `Run scripts/setup.sh to install them. (${reason})`,
    );
  }
});

describe.each(exampleNames)('example %s', (exampleName) => {
  const folder = path.join(repositoryRoot, 'examples', exampleName);

  it('has a task.json naming its files and a metric pattern with one capture group', async () => {
    const task = await readTaskJson(folder);
    expect(task.name).toBe(exampleName);
    expect(task.entrypoint).toBe('starter_code.py');
    expect(task.output).toBe('methodology_implementation.py');
    expect(task.network).toBe(false);
    expect(['max', 'min']).toContain(task.metric.goal);
    const pattern = new RegExp(task.metric.pattern);
    expect(new RegExp(`${pattern.source}|`).exec('')?.length).toBe(2);
    for (const file of ['methodology_description.txt', 'pseudocode.txt', 'starter_code.py']) {
      const content = await readFile(path.join(folder, file), 'utf8');
      expect(content.trim().length, `${file} is empty`).toBeGreaterThan(0);
    }
  });

  it('runs its starter and prints the metric', async () => {
    const task = await readTaskJson(folder);
    const { stdout } = await run(python, [task.entrypoint], {
      cwd: folder,
      timeout: 120_000,
    });
    const match = new RegExp(task.metric.pattern).exec(stdout);
    expect(match, `no line matching /${task.metric.pattern}/ in:\n${stdout}`).not.toBeNull();
    const value = Number(match?.[1]);
    expect(Number.isFinite(value)).toBe(true);
  });
});
