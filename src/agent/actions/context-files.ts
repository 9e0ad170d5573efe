import type { Workspace } from '../../workspace/workspace.js';
import { material } from './material.js';
import { numberLines, splitLines } from './numbered-lines.js';
import { truncateMiddle } from './truncate-text.js';

/** Most characters of one context file shown to the worker. */
export const contextFileCharacterLimit = 20_000;

/** The named context files as titled blocks; throws (WorkspaceError) for a bad name. */
export async function contextFileBlocks(
  workspace: Workspace,
  names: readonly string[],
): Promise<string[]> {
  const blocks: string[] = [];
  for (const name of names) {
    const content = await workspace.read(name);
    // Numbered like the file being edited, so the instruction and answer can cite lines.
    const numbered = numberLines(splitLines(content), 1);
    blocks.push(
      material(
        `Context file ${name} (line numbers added)`,
        truncateMiddle(numbered, contextFileCharacterLimit),
      ),
    );
  }
  return blocks;
}
