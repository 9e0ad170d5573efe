import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTask } from '../../src/tasks/load-task.js';
import { TaskError } from '../../src/tasks/task-error.js';
import { fixtureTask } from './fixture-paths.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codify-task-error-'));
  await cp(fixtureTask('good-task'), dir, { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadError(path: string): Promise<TaskError> {
  try {
    await loadTask(path);
  } catch (error) {
    if (error instanceof TaskError) return error;
    throw error;
  }
  throw new Error(`loadTask(${path}) did not fail`);
}

describe('loadTask errors', () => {
  it('names a missing task folder', async () => {
    const error = await loadError(join(dir, 'nowhere'));
    expect(error.message).toBe(
      `The task folder ${join(dir, 'nowhere')} does not exist: pass the folder that holds methodology_description.txt and starter_code.py (or an MLAgentBench env/ and scripts/research_problem.txt)`,
    );
  });

  it('names a file passed instead of a folder', async () => {
    const error = await loadError(join(dir, 'task.json'));
    expect(error.message).toContain(`${join(dir, 'task.json')} is a file, not a task folder`);
  });

  it('names a missing methodology and how to fix it', async () => {
    await rm(join(dir, 'methodology_description.txt'));
    const error = await loadError(dir);
    expect(error.message).toBe(
      `methodology_description.txt is missing in ${dir}: write the method to implement there`,
    );
    expect(error.path).toBe(join(dir, 'methodology_description.txt'));
  });

  it('names an empty methodology', async () => {
    await writeFile(join(dir, 'methodology_description.txt'), '  \n\n');
    const error = await loadError(dir);
    expect(error.message).toBe(
      `methodology_description.txt is empty in ${dir}: write the method to implement there`,
    );
  });

  it('names a missing starter code', async () => {
    await rm(join(dir, 'starter_code.py'));
    const error = await loadError(dir);
    expect(error.message).toBe(
      `starter_code.py is missing in ${dir}: put the code to build on there, or name another entry point in task.json "entrypoint"`,
    );
  });

  it('gives line and column of a JSON syntax error', async () => {
    await writeFile(join(dir, 'task.json'), '{\n  "name": "x",\n  "args" []\n}\n');
    const error = await loadError(dir);
    expect(error.message).toContain(
      `${join(dir, 'task.json')} is not valid JSON (line 3, column 10:`,
    );
    expect(error.path).toBe(join(dir, 'task.json'));
  });

  it('reports truncated JSON at its end', async () => {
    await writeFile(join(dir, 'task.json'), '{\n  "name": "x",');
    const error = await loadError(dir);
    expect(error.message).toContain('is not valid JSON (line 2, column 15:');
  });

  it('names the key path of a schema error', async () => {
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({ metric: { name: 'accuracy', pattern: 'a: (\\d)', goal: 'highest' } }),
    );
    const error = await loadError(dir);
    expect(error.message).toContain(
      `${join(dir, 'task.json')} does not match the task.json format`,
    );
    expect(error.message).toContain('"metric.goal"');
  });

  it('names a wrongly typed timeout and an unknown key', async () => {
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({ timeout_s: 'long', entry_point: 'a.py' }),
    );
    const error = await loadError(dir);
    expect(error.message).toContain('"timeout_s"');
    expect(error.message).toContain('unknown key "entry_point"');
  });

  it('rejects a metric pattern that is not a regular expression', async () => {
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({ metric: { name: 'accuracy', pattern: 'accuracy: ([0-9.]+', goal: 'max' } }),
    );
    const error = await loadError(dir);
    expect(error.message).toContain(
      '"metric.pattern" "accuracy: ([0-9.]+" is not a valid regular expression',
    );
  });

  it('rejects a metric pattern without a capture group', async () => {
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({ metric: { name: 'loss', pattern: 'loss: [0-9.]+', goal: 'min' } }),
    );
    const error = await loadError(dir);
    expect(error.message).toContain('"metric.pattern" "loss: [0-9.]+" has no capture group');
  });

  it('accepts a pattern whose only group is named or nested', async () => {
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({ metric: { name: 'loss', pattern: 'loss: (?<value>[0-9.]+)', goal: 'min' } }),
    );
    expect((await loadTask(dir)).metric?.name).toBe('loss');
  });

  it('names an entrypoint that does not exist', async () => {
    await writeFile(join(dir, 'task.json'), JSON.stringify({ entrypoint: 'main.py' }));
    const error = await loadError(dir);
    expect(error.message).toBe(
      `${join(dir, 'task.json')}: "entrypoint" names main.py, which is missing in ${dir}: fix "entrypoint" or put the starter code there`,
    );
  });

  it('rejects an entrypoint outside the task folder', async () => {
    await writeFile(join(dir, 'task.json'), JSON.stringify({ entrypoint: '../elsewhere.py' }));
    const error = await loadError(dir);
    expect(error.message).toContain(
      '"entrypoint" is "../elsewhere.py", which is not a file inside the task folder',
    );
  });

  it('rejects an output that is an input file', async () => {
    await writeFile(join(dir, 'task.json'), JSON.stringify({ output: './starter_code.py' }));
    const error = await loadError(dir);
    expect(error.message).toContain(
      '"output" is starter_code.py, which is already an input file of the task (inputs are read-only)',
    );
  });

  it('names what an MLAgentBench folder lacks', async () => {
    const benchmark = join(dir, 'bench');
    await mkdir(join(benchmark, 'scripts'), { recursive: true });
    await writeFile(join(benchmark, 'scripts', 'research_problem.txt'), 'Improve it.');
    expect((await loadError(benchmark)).message).toContain(`env/ is missing in ${benchmark}`);
    await mkdir(join(benchmark, 'env'));
    expect((await loadError(benchmark)).message).toBe(
      `train.py is missing in ${join(benchmark, 'env')}: put the code to build on there, or name another entry point in task.json "entrypoint"`,
    );
    await writeFile(join(benchmark, 'env', 'train.py'), 'print(1)\n');
    await rm(join(benchmark, 'scripts', 'research_problem.txt'));
    expect((await loadError(benchmark)).message).toBe(
      `scripts/research_problem.txt is missing in ${benchmark}: write the research problem (the method to implement) there`,
    );
  });
});
