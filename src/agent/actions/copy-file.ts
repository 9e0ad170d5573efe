import { z } from 'zod';
import { succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';

export const copyFile = defineAction({
  name: 'Copy File',
  description:
    'Copies a file to a new name in the workspace (e.g. to keep a working version aside). Task inputs cannot be overwritten.',
  pool: 'coding',
  inputSchema: z.object({ source: pathField, destination: pathField }),
  usage: { source: 'methodology_implementation.py', destination: 'implementation_that_ran.py' },
  async run({ source, destination }, { workspace }) {
    const version = await workspace.copy(source, destination);
    return succeed(
      `Copied ${source} to ${destination} (version ${version.version} of ${version.path}).`,
    );
  },
});
