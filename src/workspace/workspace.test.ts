import { mkdtemp, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../tasks/types.js';
import { WorkspaceError } from './errors.js';
import { createWorkspace, diffFiles, diffVersions, openWorkspace } from './index.js';
import type { Workspace } from './workspace.js';

let base: string;
let task: Task;
let runDir: string;
let workspace: Workspace;

const starter = 'import numpy\n\nprint("accuracy: 0.5")\n';

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'codify-workspace-'));
  const taskDir = join(base, 'task');
  await mkdir(join(taskDir, 'data'), { recursive: true });
  await writeFile(join(taskDir, 'starter_code.py'), starter);
  await writeFile(join(taskDir, 'methodology_description.txt'), 'Use a better model.\n');
  await writeFile(join(taskDir, 'data', 'train.csv'), 'x,y\n1,2\n');
  await writeFile(join(base, 'secret.txt'), 'outside\n');
  task = {
    dir: taskDir,
    name: 'demo',
    format: 'codify',
    entrypoint: 'starter_code.py',
    output: 'methodology_implementation.py',
    args: [],
    timeoutS: 60,
    pythonRequires: [],
    network: false,
    files: { methodology: 'Use a better model.\n', starterCode: starter, subparts: [] },
    inputFiles: ['starter_code.py', 'methodology_description.txt', 'data'],
  };
  runDir = join(base, 'run');
  workspace = await createWorkspace({ task, runDir });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspaceError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('createWorkspace', () => {
  it('copies the task inputs into <runDir>/workspace and lists them as read-only', async () => {
    expect(await readFile(join(runDir, 'workspace', 'starter_code.py'), 'utf8')).toBe(starter);
    const entries = await workspace.list();
    expect(entries.map((entry) => [entry.path, entry.kind, entry.readOnly])).toEqual([
      ['data', 'directory', true],
      ['methodology_description.txt', 'file', true],
      ['starter_code.py', 'file', true],
    ]);
    expect((await workspace.list('data')).map((entry) => entry.path)).toEqual(['data/train.csv']);
  });

  it('can be created again over an existing workspace (read-only copies are replaced)', async () => {
    const again = await createWorkspace({ task, runDir });
    expect(await again.read('starter_code.py')).toBe(starter);
  });

  it('names a missing task input and the fix', async () => {
    const broken = { ...task, inputFiles: ['nowhere.py'] };
    const message = await refusal(createWorkspace({ task: broken, runDir: join(base, 'run2') }));
    expect(message).toContain('nowhere.py does not exist');
  });
});

describe('path guard', () => {
  it('refuses .. that leaves the workspace, with a usable suggestion', async () => {
    const resolved = await workspace.resolve('../x');
    expect(resolved).toEqual({
      ok: false,
      reason:
        'refused: ../x leaves the workspace; name files relative to the workspace, e.g. starter_code.py',
    });
    expect(await refusal(workspace.read('../secret.txt'))).toContain('leaves the workspace');
    expect(await refusal(workspace.read('data/../../secret.txt'))).toContain(
      'leaves the workspace',
    );
  });

  it('accepts .. that stays inside and absolute paths inside the root', async () => {
    const inside = await workspace.resolve('data/../starter_code.py');
    expect(inside).toMatchObject({ ok: true, relative: 'starter_code.py' });
    expect(await workspace.read(join(workspace.root, 'starter_code.py'))).toBe(starter);
  });

  it('refuses absolute paths outside the workspace', async () => {
    expect(await refusal(workspace.read('/etc/passwd'))).toContain(
      '/etc/passwd leaves the workspace',
    );
  });

  it('refuses symlinks anywhere in the path that point outside', async () => {
    await symlink(base, join(workspace.root, 'escape'));
    await symlink(join(base, 'secret.txt'), join(workspace.root, 'secret-link.txt'));
    expect(await refusal(workspace.read('escape/secret.txt'))).toContain(
      'goes through the symlink escape',
    );
    expect(await refusal(workspace.read('secret-link.txt'))).toContain('points outside');
    expect(await refusal(workspace.write('escape/new.py', 'x', 'test'))).toContain('symlink');
    expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe('outside\n');
  });

  it('refuses writing, copying onto and undoing task inputs, suggesting the output name', async () => {
    const message = await refusal(workspace.write('starter_code.py', 'x = 1\n', 'edit'));
    expect(message).toContain('starter_code.py is a task input and read-only');
    expect(message).toContain('methodology_implementation.py');
    expect(
      await refusal(workspace.copy('methodology_description.txt', 'starter_code.py')),
    ).toContain('read-only');
    expect(await refusal(workspace.write('data/train.csv', '', 'edit'))).toContain('read-only');
    expect(await readFile(join(workspace.root, 'starter_code.py'), 'utf8')).toBe(starter);
  });

  it('says when a file is missing or is a directory', async () => {
    expect(await refusal(workspace.read('missing.py'))).toContain('missing.py does not exist');
    expect(await refusal(workspace.read('data'))).toContain('data is a directory');
  });
});

describe('versions', () => {
  it('keeps every write, undoes back to the original, and refuses when there is nothing left', async () => {
    const first = await workspace.copy('starter_code.py', 'impl.py');
    expect(first).toMatchObject({
      version: 1,
      path: 'impl.py',
      reason: 'copied from starter_code.py',
    });
    await workspace.write('impl.py', 'print("v2")\n', 'edit 2');
    expect((await workspace.versions('impl.py')).map((version) => version.version)).toEqual([
      0, 1, 2,
    ]);
    expect(await workspace.readVersion('impl.py', 1)).toBe(starter);
    expect(await workspace.readVersion('impl.py', 0)).toBe('');

    const restored = await workspace.undo('impl.py');
    expect(restored?.version).toBe(1);
    expect(await workspace.read('impl.py')).toBe(starter);
    const original = await workspace.undo('impl.py');
    expect(original).toMatchObject({ version: 0, absent: true });
    await expect(stat(join(workspace.root, 'impl.py'))).rejects.toThrow();
    expect(await refusal(workspace.undo('impl.py'))).toContain('no earlier version');
    // The undone contents are still on disk under versions/.
    expect(await readFile(join(runDir, 'versions', 'impl.py', '2'), 'utf8')).toBe('print("v2")\n');
  });

  it('numbers versions after an undo past the undone ones and records outside changes', async () => {
    await workspace.write('a.py', 'one\n', 'first');
    await workspace.write('a.py', 'two\n', 'second');
    await workspace.undo('a.py');
    const third = await workspace.write('a.py', 'three\n', 'third');
    expect(third.version).toBe(3);
    await writeFile(join(workspace.root, 'a.py'), 'by a script\n');
    await workspace.write('a.py', 'four\n', 'fourth');
    const history = await workspace.versions('a.py');
    expect(history.map((version) => version.reason)).toEqual([
      'absent before the first write',
      'first',
      'third',
      "changed outside the agent's edits (e.g. by a script run)",
      'fourth',
    ]);
    expect(await workspace.readVersion('a.py', 4)).toBe('by a script\n');
  });

  it('survives reopening for resume', async () => {
    await workspace.write('b.py', 'x = 1\n', 'first');
    await workspace.write('b.py', 'x = 2\n', 'second');
    const reopened = await openWorkspace(runDir, task);
    expect((await reopened.versions('b.py')).map((version) => version.version)).toEqual([0, 1, 2]);
    await reopened.undo('b.py');
    expect(await reopened.read('b.py')).toBe('x = 1\n');
    expect(reopened.isReadOnly('starter_code.py')).toBe(true);
  });

  it('refuses to reopen a run without a workspace', async () => {
    expect(await refusal(openWorkspace(join(base, 'nothing'), task))).toContain(
      'cannot be resumed',
    );
  });

  it('reads version 0 of a never-edited file as its content, and names the versions that exist', async () => {
    expect(await workspace.readVersion('starter_code.py', 0)).toBe(starter);
    expect(await refusal(workspace.readVersion('starter_code.py', 3))).toContain(
      'never been edited',
    );
  });
});

describe('diffs', () => {
  it('diffs two versions and two files as unified diffs', async () => {
    await workspace.copy('starter_code.py', 'impl.py');
    await workspace.write('impl.py', starter.replace('0.5', '0.9'), 'better');
    const versionsDiff = await diffVersions(workspace, 'impl.py', 1, 2);
    expect(versionsDiff).toContain('--- impl.py (version 1)');
    expect(versionsDiff).toContain('+++ impl.py (version 2)');
    expect(versionsDiff).toContain('-print("accuracy: 0.5")');
    expect(versionsDiff).toContain('+print("accuracy: 0.9")');
    const filesDiff = await diffFiles(workspace, 'starter_code.py', 'impl.py');
    expect(filesDiff).toContain('@@ -1,3 +1,3 @@');
    expect(await diffFiles(workspace, 'starter_code.py', 'starter_code.py')).toBe('');
  });
});
