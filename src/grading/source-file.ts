/** A file a judge may be shown, by its path in the repository. */
export interface SourceFile {
  path: string;
  content: string;
}

/** Files as the judge reads them: each under its path in a fence. */
export function renderFiles(files: readonly SourceFile[]): string {
  return files.map((file) => `## ${file.path}\n\n\`\`\`\n${file.content}\n\`\`\``).join('\n\n');
}

/** The repository's files as a listing the judge picks from: one path a line, with its size. */
export function renderListing(files: readonly SourceFile[]): string {
  return files.map((file) => `${file.path} (${file.content.split('\n').length} lines)`).join('\n');
}

/** Characters of files as renderFiles shows them (paths and fences included). */
export const renderedChars = (files: readonly SourceFile[]): number =>
  files.reduce((sum, file) => sum + file.content.length + file.path.length + 16, 0);
