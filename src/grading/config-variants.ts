import { diffLines } from 'diff';
import type { SourceFile } from './source-file.js';

/** A configuration variant beside the base one: `configs/<name>.yaml` next to `config.yaml`. */
const variantPath = /^configs\/[^/]+\.ya?ml$/;

/**
 * One variant as the lines that differ from the base configuration, each with its line
 * number in the variant (`+ 12: alpha: 1.0`) or in the base (`- 12: alpha: 0.2`).
 */
export function variantChanges(base: string, variant: string): string {
  const lines: string[] = [];
  let baseLine = 1;
  let variantLine = 1;
  for (const part of diffLines(base, variant)) {
    const partLines = part.value.replace(/\n$/, '').split('\n');
    if (part.added === true) {
      for (const line of partLines) lines.push(`+ ${variantLine++}: ${line}`);
    } else if (part.removed === true) {
      for (const line of partLines) lines.push(`- ${baseLine++}: ${line}`);
    } else {
      baseLine += partLines.length;
      variantLine += partLines.length;
    }
  }
  return lines.join('\n');
}

/**
 * The repository's files with each configuration variant shown as its changes from
 * `config.yaml` (paper mode writes one variant per experiment, each a copy of `config.yaml`
 * with a few lines overridden): the judge reads the base once and every variant's own
 * lines, not the same settings again for every experiment. A variant whose changes would
 * not be shorter than the file stays whole.
 */
export function withVariantsAsChanges(files: readonly SourceFile[]): SourceFile[] {
  const base = files.find((file) => file.path === 'config.yaml');
  if (base === undefined) return [...files];
  return files.map((file) => {
    if (!variantPath.test(file.path.replaceAll('\\', '/'))) return file;
    const changes = variantChanges(base.content, file.content);
    const content = `(config.yaml with these lines changed, "-" its line and "+" this file's; every other line is as in config.yaml)\n${changes}`;
    return content.length < file.content.length ? { path: file.path, content } : file;
  });
}
