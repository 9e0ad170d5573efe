import { z } from 'zod';

/** A file or folder name; models sometimes wrap names in quotes or spaces. */
export const pathField = z
  .string({ error: 'give a path relative to the workspace, as a string' })
  .transform((value) => value.trim().replace(/^["'`]|["'`]$/g, ''))
  .refine((value) => value.length > 0, 'the path is empty');

/** A 1-based line number; accepts "12" as well as 12. */
export const lineNumberField = z.coerce
  .number({ error: 'give a line number' })
  .int('line numbers are whole numbers')
  .min(1, 'line numbers start at 1');

/** A list of file names; accepts a JSON array or a comma-separated string. */
export const pathListField = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0)
      : value,
  z.array(pathField, { error: 'give a list of file names, e.g. ["utils.py"]' }),
);

/** Splits a command-line string on spaces, keeping quoted parts together. */
export function splitArguments(text: string): string[] {
  const parts: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return parts;
}

/** Script arguments: a list, or one string split like a shell would (without expansion). */
export const argumentsField = z.preprocess(
  (value) => {
    if (value === undefined || value === null) return [];
    if (typeof value === 'string') return splitArguments(value);
    if (Array.isArray(value))
      return value.map((item) => (typeof item === 'string' ? item : String(item)));
    return value;
  },
  z.array(z.string(), { error: 'give arguments as a list of strings, e.g. ["--epochs", "2"]' }),
);
