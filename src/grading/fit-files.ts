import type { SourceFile } from './source-file.js';

/**
 * Files in the order given, added whole while they fit `budgetChars`; the first that does
 * not fit is cut (marked as cut) while more than a few hundred characters are left, the
 * rest only named. What PaperBench does with the files its judge ranks.
 */
export function fitFiles(
  files: readonly SourceFile[],
  budgetChars: number,
): { shown: SourceFile[]; named: string[] } {
  const shown: SourceFile[] = [];
  const named: string[] = [];
  let left = budgetChars;
  for (const file of files) {
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

/** Text cut to `chars`, marked where it was cut; `keep: 'end'` keeps the last characters (a log's end). */
export function cutText(text: string, chars: number, keep: 'start' | 'end' = 'start'): string {
  if (text.length <= chars) return text;
  const note = `… (cut: ${text.length - chars} characters left out)`;
  return keep === 'start' ? `${text.slice(0, chars)}\n${note}` : `${note}\n${text.slice(-chars)}`;
}
