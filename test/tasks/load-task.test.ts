import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTask } from '../../src/tasks/load-task.js';
import { fixtureTask } from './fixture-paths.js';

const temporary: string[] = [];
afterEach(async () => {
  for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('loadTask', () => {
  it('loads a codify task folder with its settings and optional files', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    expect(task.dir).toBe(fixtureTask('good-task'));
    expect(task.format).toBe('codify');
    expect(task.name).toBe('threshold-classifier');
    expect(task.entrypoint).toBe('starter_code.py');
    expect(task.output).toBe('methodology_implementation.py');
    expect(task.timeoutS).toBe(60);
    expect(task.network).toBe(false);
    expect(task.pythonRequires).toEqual([]);
    expect(task.metric).toEqual({
      name: 'accuracy',
      pattern: '^accuracy: ([0-9.]+)',
      goal: 'max',
    });
    expect(task.files.methodology).toContain('threshold classifier');
    expect(task.files.starterCode).toContain('majority');
    expect(task.files.dataset).toContain('data.csv holds');
    expect(task.files.pseudocode).toContain('threshold = mean');
    expect(task.files.supplementary).toContain('Accuracy is the share');
    expect(task.files.starterPerformance).toBeUndefined();
    expect(task.files.problemStatement).toBeUndefined();
    expect(task.files.subparts.map((subpart) => subpart.name)).toEqual([
      'subpart_1_1.py',
      'subpart_2_1.py',
      'subpart_10_1.py',
    ]);
    expect(task.inputDir).toBeUndefined();
    expect(task.inputFiles).toEqual([
      'data.csv',
      'dataset_description.txt',
      'methodology_description.txt',
      'pseudocode.txt',
      'starter_code.py',
      'subpart_10_1.py',
      'subpart_1_1.py',
      'subpart_2_1.py',
      'supplementary_methodology.txt',
      'task.json',
    ]);
  });

  it('uses defaults without task.json and lists inputs recursively, skipping caches and runs/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codify-task-'));
    temporary.push(dir);
    await writeFile(join(dir, 'methodology_description.txt'), 'Do the thing.\n');
    await writeFile(join(dir, 'starter_code.py'), 'print("hi")\n');
    await mkdir(join(dir, 'lib', '__pycache__'), { recursive: true });
    await writeFile(join(dir, 'lib', 'helpers.py'), 'X = 1\n');
    await writeFile(join(dir, 'lib', '__pycache__', 'helpers.cpython-311.pyc'), 'x');
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'HEAD'), 'ref');
    await mkdir(join(dir, 'runs', 'old'), { recursive: true });
    await writeFile(join(dir, 'runs', 'old', 'events.jsonl'), '{}');
    const task = await loadTask(dir);
    expect(task.name).toBe(dir.split('/').pop());
    expect(task.args).toEqual([]);
    expect(task.timeoutS).toBe(600);
    expect(task.metric).toBeUndefined();
    expect(task.inputFiles).toEqual([
      'lib/helpers.py',
      'methodology_description.txt',
      'starter_code.py',
    ]);
  });

  it('loads an MLAgentBench folder: research problem as methodology, env/ as inputs, train.py entry', async () => {
    const task = await loadTask(fixtureTask('mlagentbench-task'));
    expect(task.format).toBe('mlagentbench');
    expect(task.name).toBe('mlagentbench-task');
    expect(task.inputDir).toBe(join(fixtureTask('mlagentbench-task'), 'env'));
    expect(task.entrypoint).toBe('train.py');
    expect(task.files.methodology).toContain('learned threshold');
    expect(task.files.starterCode).toContain('Test accuracy');
    expect(task.files.dataset).toContain('Four numbers');
    expect(task.inputFiles).toEqual(['data_description.txt', 'train.py']);
    expect(task.metric?.pattern).toBe('Test accuracy: ([0-9.]+)');
  });

  it('honours entrypoint, output, args, python.requires and network from task.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codify-task-'));
    temporary.push(dir);
    await cp(fixtureTask('good-task'), dir, { recursive: true });
    await writeFile(join(dir, 'main.py'), 'print("main")\n');
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({
        entrypoint: 'main.py',
        output: 'out/new_method.py',
        args: ['--epochs', '2'],
        python: { requires: ['numpy'] },
        network: true,
      }),
    );
    const task = await loadTask(dir);
    expect(task.entrypoint).toBe('main.py');
    expect(task.files.starterCode).toBe('print("main")\n');
    expect(task.output).toBe('out/new_method.py');
    expect(task.args).toEqual(['--epochs', '2']);
    expect(task.pythonRequires).toEqual(['numpy']);
    expect(task.network).toBe(true);
  });
});
