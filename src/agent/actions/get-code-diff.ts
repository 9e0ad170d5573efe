import { z } from 'zod';
import type { Task } from '../../tasks/types.js';
import { diffStatistics, unifiedDiff } from '../../workspace/unified-diff.js';
import type { Workspace } from '../../workspace/workspace.js';
import { fail, succeed } from './action-result.js';
import { defineAction } from './define-action.js';
import { pathField } from './input-fields.js';
import { truncateMiddle } from './truncate-text.js';

const usage = { script_name: 'methodology_implementation.py' };
const versionField = z.coerce.number().int().min(0, 'versions start at 0 (the original)');

interface Side {
  label: string;
  text: string;
}

async function side(workspace: Workspace, path: string, version?: number): Promise<Side> {
  if (version === undefined) return { label: path, text: await workspace.read(path) };
  return {
    label: `${path} (version ${version})`,
    text: await workspace.readVersion(path, version),
  };
}

/** Current vs previous version when there is a real one, else vs the task's starter code. */
async function defaultBaseline(
  workspace: Workspace,
  task: Task,
  path: string,
): Promise<Side | undefined> {
  const history = await workspace.versions(path);
  const previous = history.at(-2);
  if (previous !== undefined && !previous.absent) return side(workspace, path, previous.version);
  const resolved = await workspace.resolve(path);
  if (resolved.ok && resolved.relative === task.entrypoint) return undefined;
  return side(workspace, task.entrypoint);
}

export const getCodeDiff = defineAction({
  name: 'Get Code Diff',
  description:
    'Shows a unified diff of a file: by default its current content against its previous version (or the starter code); name other_script_name and/or versions to compare anything else.',
  pool: 'understanding',
  inputSchema: z.object({
    script_name: pathField,
    other_script_name: pathField.optional(),
    version: versionField.optional(),
    other_version: versionField.optional(),
  }),
  usage,
  async run({ script_name, other_script_name, version, other_version }, { workspace, task }) {
    const target = await side(workspace, script_name, version);
    const baseline =
      other_script_name !== undefined || other_version !== undefined
        ? await side(workspace, other_script_name ?? script_name, other_version)
        : await defaultBaseline(workspace, task, script_name);
    if (baseline === undefined) {
      return fail(
        'Get Code Diff',
        `${script_name} has never been edited, so there is nothing to compare it with; name other_script_name or a version`,
        { script_name: task.output, other_script_name: task.entrypoint },
      );
    }
    const diff = unifiedDiff(baseline.label, target.label, baseline.text, target.text);
    if (diff === '') return succeed(`${baseline.label} and ${target.label} are identical.`);
    const { added, removed } = diffStatistics(diff);
    return succeed(
      `Changes from ${baseline.label} to ${target.label}: ${added} lines added, ${removed} removed.\n${truncateMiddle(diff, 12_000)}`,
    );
  },
});
