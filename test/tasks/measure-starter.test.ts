import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { loadTask } from '../../src/tasks/load-task.js';
import { measureStarter, needsStarterMeasurement } from '../../src/tasks/measure-starter.js';
import { fixtureTask } from './fixture-paths.js';

const interpreter = '/usr/bin/python3';
let sandbox: Sandbox;
const runDirs: string[] = [];

beforeAll(async () => {
  sandbox = await createSandbox('bubblewrap');
});
afterEach(async () => {
  for (const dir of runDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function runDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'codify-measure-'));
  runDirs.push(dir);
  return dir;
}

describe('measureStarter', () => {
  it('runs the starter in the sandbox, reads the last metric and writes the performance file into the run folder', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    expect(needsStarterMeasurement(task)).toBe(true);
    const before = await readdir(task.dir);
    const dir = await runDir();
    const measurement = await measureStarter({ task, sandbox, interpreter, runDir: dir });
    expect(measurement.execution.exitCode).toBe(0);
    expect(measurement.execution.output).toContain('epoch 1 accuracy: 0.5');
    expect(measurement.metric).toEqual({ name: 'accuracy', goal: 'max', raw: '0.75', value: 0.75 });
    expect(measurement.performancePath).toBe(join(dir, 'starter_code_performance.txt'));
    const written = await readFile(join(dir, 'starter_code_performance.txt'), 'utf8');
    expect(written).toBe(measurement.performanceText);
    expect(written.startsWith('accuracy: 0.75\n')).toBe(true);
    expect(written).toContain('`python starter_code.py` exited with code 0');
    // the user's folder is untouched and the scratch copy is gone
    expect(await readdir(task.dir)).toEqual(before);
    await expect(stat(measurement.scratchDir)).rejects.toThrow();
  });

  it('runs an MLAgentBench entry point inside its env/ copy', async () => {
    const task = await loadTask(fixtureTask('mlagentbench-task'));
    const dir = await runDir();
    const measurement = await measureStarter({
      task,
      sandbox,
      interpreter,
      runDir: dir,
      keepScratch: true,
    });
    expect(measurement.execution.exitCode).toBe(0);
    expect(measurement.metric?.value).toBe(1);
    expect((await readdir(measurement.scratchDir)).sort()).toEqual([
      'data_description.txt',
      'train.py',
    ]);
  });

  it('returns a crash as a result, with no metric and no performance file', async () => {
    const task = await loadTask(fixtureTask('crashing-task'));
    const dir = await runDir();
    const measurement = await measureStarter({ task, sandbox, interpreter, runDir: dir });
    expect(measurement.execution.exitCode).toBe(1);
    expect(measurement.execution.output).toContain("KeyError: 'missing'");
    expect(measurement.metric).toBeUndefined();
    expect(measurement.performancePath).toBeUndefined();
    expect(await readdir(dir)).not.toContain('starter_code_performance.txt');
  });

  it('keeps the inputs read-only for the script, as in the agent workspace', async () => {
    const task = await loadTask(fixtureTask('good-task'));
    const dir = await runDir();
    const copy = join(dir, 'task');
    await mkdir(copy);
    for (const input of task.inputFiles) {
      await writeFile(join(copy, input), await readFile(join(task.dir, input)));
    }
    await writeFile(
      join(copy, 'starter_code.py'),
      'try:\n    open("data.csv", "a").write("x")\n    print("accuracy: 1.0")\nexcept OSError as error:\n    print("refused", type(error).__name__)\n',
    );
    const measurement = await measureStarter({
      task: { ...task, dir: copy },
      sandbox,
      interpreter,
      runDir: dir,
    });
    expect(measurement.execution.output).toContain('refused');
    expect(measurement.metric).toBeUndefined();
  });
});
