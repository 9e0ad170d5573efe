import { z } from 'zod';
import { succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';

export const listFiles = defineAction({
  name: 'List Files',
  description:
    'Lists the files and folders in a workspace folder, with sizes; task inputs are marked read-only.',
  pool: 'understanding',
  inputSchema: z.object({ dir_path: pathField.default('.') }),
  usage: { dir_path: '.' },
  async run({ dir_path }, { workspace }) {
    const entries = await workspace.list(dir_path);
    if (entries.length === 0) return succeed(`${dir_path} is empty.`);
    const lines = entries.map((entry) => {
      const name = entry.kind === 'directory' ? `${entry.path}/` : entry.path;
      const size = entry.kind === 'file' ? ` (${entry.size} bytes)` : '';
      return `${name}${size}${entry.readOnly ? ' [read-only task input]' : ''}`;
    });
    return succeed(`Files in ${dir_path}:\n${lines.join('\n')}`);
  },
});
