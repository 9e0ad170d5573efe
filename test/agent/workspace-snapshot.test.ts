import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreFiles, snapshotFiles } from '../../src/agent/workspace-snapshot.js';
import { loadTask } from '../../src/tasks/load-task.js';
import { createWorkspace } from '../../src/workspace/create-workspace.js';
import { makeTask } from './task-fixture.js';

describe('workspace snapshot', () => {
  it('undoes the edits of a step that did not complete', async () => {
    const { taskDir } = makeTask();
    const runDir = mkdtempSync(join(tmpdir(), 'codify-snapshot-'));
    const workspace = await createWorkspace({ task: await loadTask(taskDir), runDir });
    await workspace.write('a.py', 'one\n', 'step 1');
    await workspace.write('a.py', 'two\n', 'step 2');
    const snapshot = await snapshotFiles(workspace);
    expect(Object.keys(snapshot)).toEqual(['a.py']);
    await workspace.write('a.py', 'three\n', 'unfinished step');
    await workspace.write('b.py', 'new\n', 'unfinished step');
    const restored = await restoreFiles(workspace, snapshot);
    expect(restored.sort()).toEqual(['a.py', 'b.py']);
    expect(await workspace.read('a.py')).toBe('two\n');
    expect(existsSync(join(workspace.root, 'b.py'))).toBe(false);
    expect(await workspace.read('starter_code.py')).toContain('def train');
  });
});
