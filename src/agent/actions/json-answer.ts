import type { z } from 'zod';

/** The JSON in an answer: the last ```json fence, else any fence, else the outermost braces. */
export function jsonText(answer: string): string | undefined {
  const fences = [...answer.matchAll(/```([A-Za-z]*)[^\n]*\n([\s\S]*?)```/g)];
  const chosen =
    fences.filter((fence) => fence[1]?.toLowerCase() === 'json').at(-1) ?? fences.at(-1);
  if (chosen?.[2] !== undefined) return chosen[2].trim();
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  return start >= 0 && end > start ? answer.slice(start, end + 1) : undefined;
}

/** The validated value, or why the answer does not fit, in words a model can fix. */
export function parseJsonAnswer<T>(
  answer: string,
  schema: z.ZodType<T>,
): { value: T } | { problem: string } {
  const text = jsonText(answer);
  if (text === undefined) return { problem: 'it holds no JSON object' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      problem: `the JSON does not parse (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { value: result.data };
  const problems = result.error.issues
    .slice(0, 6)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return { problem: `the JSON does not fit the shape (${problems.join('; ')})` };
}
