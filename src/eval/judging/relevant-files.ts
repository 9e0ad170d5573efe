/** A file a judge may be shown. */
export interface SourceFile {
  path: string;
  content: string;
}

const words = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2),
  );

/**
 * The files most relevant to a requirement, within a character budget, so a large
 * repository still fits the judge's context: files are ranked by how many of the
 * requirement's words their path and content contain (path words count double), and
 * added whole while they fit; one that does not fit is cut (marked as cut) while more
 * than a few hundred characters are left, otherwise only named.
 */
export function selectRelevantFiles(
  requirement: string,
  files: readonly SourceFile[],
  budgetChars: number,
): { shown: SourceFile[]; named: string[] } {
  const wanted = words(requirement);
  const ranked = files
    .map((file, index) => {
      const inPath = words(file.path);
      const inContent = words(file.content);
      let score = 0;
      for (const word of wanted) {
        if (inPath.has(word)) score += 2;
        if (inContent.has(word)) score += 1;
      }
      return { file, score, index };
    })
    .sort((left, right) => right.score - left.score || left.index - right.index);
  const shown: SourceFile[] = [];
  const named: string[] = [];
  let left = budgetChars;
  for (const { file } of ranked) {
    if (file.content.length <= left) {
      shown.push(file);
      left -= file.content.length;
    } else if (left > 200) {
      // A cut file still shows its beginning (imports, signatures); a sliver would not help.
      shown.push({
        path: file.path,
        content: `${file.content.slice(0, left)}\n… (cut: ${file.content.length - left} more characters)`,
      });
      left = 0;
    } else {
      named.push(file.path);
    }
  }
  return { shown, named };
}

/** Files as the judge reads them: each under its path in a fence. */
export function renderFiles(files: readonly SourceFile[]): string {
  return files.map((file) => `## ${file.path}\n\n\`\`\`\n${file.content}\n\`\`\``).join('\n\n');
}
