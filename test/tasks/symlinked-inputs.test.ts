import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { loadTask } from '../../src/tasks/load-task.js';
import { measureStarter } from '../../src/tasks/measure-starter.js';
import { createWorkspace } from '../../src/workspace/create-workspace.js';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync('/var/tmp/codify-symlink-');
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

/** A task whose data.csv is a symlink to a file of the user's outside the task folder. */
function taskWithLinkedData() {
  const outside = join(folder(), 'userdata.csv');
  writeFileSync(outside, 'x,y\n1,2\n');
  const mode = statSync(outside).mode & 0o777;
  const dir = folder();
  writeFileSync(join(dir, 'methodology_description.txt'), 'Average the column.\n');
  writeFileSync(
    join(dir, 'starter_code.py'),
    'print("rows:", len(open("data.csv").read().splitlines()) - 1)\nprint("score: 0.5")\n',
  );
  symlinkSync(outside, join(dir, 'data.csv'));
  return { dir, outside, mode };
}

describe('symlinked task inputs', () => {
  it('are copied into the workspace as read-only files, leaving the linked file as it was', async () => {
    const { dir, outside, mode } = taskWithLinkedData();
    const task = await loadTask(dir);
    const workspace = await createWorkspace({ task, runDir: folder() });
    expect(await workspace.read('data.csv')).toBe('x,y\n1,2\n');
    expect(statSync(join(workspace.root, 'data.csv')).mode & 0o222).toBe(0);
    expect(statSync(outside).mode & 0o777).toBe(mode);
  });

  it('are readable by the starter when it is measured, and the linked file keeps its mode', async () => {
    const { dir, outside, mode } = taskWithLinkedData();
    const task = {
      ...(await loadTask(dir)),
      metric: { name: 'score', pattern: 'score: ([0-9.]+)', goal: 'max' as const },
    };
    const measured = await measureStarter({
      task,
      sandbox: await createSandbox('bubblewrap'),
      interpreter: '/usr/bin/python3',
      runDir: folder(),
    });
    expect(measured.execution.exitCode).toBe(0);
    expect(measured.metric?.value).toBe(0.5);
    expect(statSync(outside).mode & 0o777).toBe(mode);
    expect(readFileSync(outside, 'utf8')).toBe('x,y\n1,2\n');
  });
});
