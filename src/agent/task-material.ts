import type { Workspace } from '../workspace/workspace.js';

/** Files bigger than this are named but not included in a prompt. */
const largestIncluded = 60_000;

/** Every text input of the task, each under its name, for a prompt. */
export async function taskMaterial(
  workspace: Workspace,
  files: readonly string[],
): Promise<string> {
  const parts: string[] = [];
  for (const file of files) {
    let content: string;
    try {
      content = await workspace.read(file);
    } catch {
      continue;
    }
    if (content.includes('\u0000')) {
      parts.push(`## ${file}\n(binary file, not shown)`);
    } else if (content.length > largestIncluded) {
      parts.push(`## ${file}\n(${content.length} characters; too long to include)`);
    } else {
      parts.push(`## ${file}\n\`\`\`\n${content.trimEnd()}\n\`\`\``);
    }
  }
  return parts.join('\n\n');
}
