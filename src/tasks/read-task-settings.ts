import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { findJsonSyntaxError } from './json-syntax-error.js';
import { TaskError } from './task-error.js';
import { type TaskSettings, taskSettingsSchema } from './task-settings.js';

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length ? `${where}: ` : '';
    return `${prefix}unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')} (known keys: name, entrypoint, output, args, timeout_s, metric {name, pattern, goal}, python {requires}, network, seed {flag | env})`;
  }
  return `"${where}": ${issue.message}`;
}

/** Validated task.json settings; defaults when the file is absent. */
export async function readTaskSettings(path: string): Promise<TaskSettings> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return taskSettingsSchema.parse({});
    throw new TaskError(`cannot read ${path}: ${(error as Error).message}`, path);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const found = findJsonSyntaxError(text);
    const where = found
      ? `line ${found.line}, column ${found.column}: ${found.problem}`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new TaskError(
      `${path} is not valid JSON (${where}): fix the syntax, or delete task.json to use the defaults`,
      path,
    );
  }
  const parsed = taskSettingsSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(describeIssue).join('; ');
    throw new TaskError(`${path} does not match the task.json format: ${problems}`, path);
  }
  return parsed.data;
}
