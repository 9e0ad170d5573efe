import { z } from 'zod';
import { unifiedDiff } from '../../workspace/unified-diff.js';
import { succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';

export const undoEditScript = defineAction({
  name: 'Undo Edit Script',
  description:
    'Undoes the last edit of a file, restoring its previous version; repeat to go further back.',
  pool: 'coding',
  inputSchema: z.object({ script_name: pathField }),
  usage: { script_name: 'methodology_implementation.py' },
  async run({ script_name }, { workspace }) {
    const before = (await workspace.versions(script_name)).at(-1);
    const restored = await workspace.undo(script_name);
    if (before === undefined || restored === undefined) {
      return succeed(`${script_name} had no edit to undo.`);
    }
    const undone = await workspace.readVersion(script_name, before.version);
    const now = await workspace.readVersion(script_name, restored.version);
    const where = restored.absent
      ? `${script_name} did not exist before that edit, so it is removed`
      : `${script_name} is back to version ${restored.version} (${restored.reason})`;
    const diff = unifiedDiff(
      `${script_name} (undone version ${before.version})`,
      `${script_name} (now)`,
      undone,
      now,
    );
    return succeed(`Undid version ${before.version} (${before.reason}): ${where}.\n${diff}`);
  },
});
