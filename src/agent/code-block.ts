/** The longest fenced code block of an answer (python preferred), or undefined. */
export function extractCodeBlock(text: string): string | undefined {
  const blocks = [...text.matchAll(/```([a-zA-Z0-9_+-]*)[ \t]*\r?\n([\s\S]*?)```/g)].map(
    (match) => ({
      language: (match[1] ?? '').toLowerCase(),
      code: match[2] ?? '',
    }),
  );
  const python = blocks.filter((block) => block.language === 'python' || block.language === 'py');
  const candidates = python.length > 0 ? python : blocks;
  const longest = candidates.sort((left, right) => right.code.length - left.code.length)[0];
  return longest === undefined ? undefined : `${longest.code.trimEnd()}\n`;
}
