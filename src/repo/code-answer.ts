/** The code in a model's answer: the longest fenced block in the given language (or any). */
export function extractCode(text: string, language = 'python'): string | undefined {
  const blocks = [...text.matchAll(/```([\w+-]*)[^\n]*\n([\s\S]*?)```/g)];
  const matching = blocks.filter((block) => (block[1] ?? '').toLowerCase() === language);
  const candidates = matching.length > 0 ? matching : blocks;
  const longest = candidates
    .map((block) => block[2] ?? '')
    .sort((first, second) => second.length - first.length)[0];
  return longest === undefined ? undefined : `${longest.replace(/\s+$/, '')}\n`;
}
