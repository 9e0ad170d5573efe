/** Keeps the head and tail of a long text, saying how much was left out. */
export function truncateMiddle(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  const half = Math.floor(maxCharacters / 2);
  const omitted = text.length - 2 * half;
  return `${text.slice(0, half)}\n[... ${omitted} characters omitted ...]\n${text.slice(-half)}`;
}
