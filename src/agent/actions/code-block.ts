/**
 * The code in a worker's answer: the longest fenced block (```python, ```py or bare ```),
 * since a short fence is usually an aside. Undefined when the answer has no fence.
 */
export function extractCode(answer: string): string | undefined {
  const blocks = [...answer.matchAll(/```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)\n?```/g)]
    .filter((match) => ['', 'python', 'py', 'python3'].includes((match[1] ?? '').toLowerCase()))
    .map((match) => match[2] ?? '');
  if (blocks.length === 0) return undefined;
  return blocks.reduce((longest, block) => (block.length > longest.length ? block : longest));
}
