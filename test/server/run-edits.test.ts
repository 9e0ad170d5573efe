import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunEdits } from '../../src/server/run-edits.js';
import { loadTask } from '../../src/tasks/load-task.js';
import { createWorkspace } from '../../src/workspace/create-workspace.js';

const starter = 'import sys\nprint("starter")\n';

describe('the Edits tab of a run whose first edit saved the starter under a new name', () => {
  it('shows that edit as a diff against the starter, and a copy as the same content', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'codify-run-edits-'));
    const taskDir = join(runDir, 'task');
    mkdirSync(taskDir);
    writeFileSync(join(taskDir, 'starter_code.py'), starter);
    writeFileSync(join(taskDir, 'methodology_description.txt'), 'Use a better model.\n');
    const task = await loadTask(taskDir);
    const workspace = await createWorkspace({ task, runDir });
    await workspace.write(
      'methodology_implementation.py',
      'import sys\nprint("method")\n',
      'Edit Script: the method',
      'starter_code.py',
    );
    await workspace.copy('methodology_implementation.py', 'kept.py');
    const { edits } = readRunEdits(runDir);
    const edited = edits.find(
      (edit) => edit.path === 'methodology_implementation.py' && edit.version === 1,
    );
    expect(edited).toMatchObject({ from: 'starter_code.py', added: 1, removed: 1 });
    expect(edited?.diff).toContain('-print("starter")');
    expect(edited?.diff).toContain('+print("method")');
    const copy = edits.find((edit) => edit.path === 'kept.py' && edit.version === 1);
    expect(copy).toMatchObject({ from: 'methodology_implementation.py', diff: '', added: 0 });
  });
});
