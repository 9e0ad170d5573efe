import { readFile } from 'node:fs/promises';
import { TaskError } from './task-error.js';

export type TextFile = { state: 'present'; content: string } | { state: 'missing' | 'empty' };

/** A task file's text; whitespace-only counts as empty, a folder or unreadable file is an error. */
export async function readTextFile(path: string): Promise<TextFile> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'missing' };
    if (code === 'EISDIR') {
      throw new TaskError(`${path} is a folder, but a file is expected there: rename it`, path);
    }
    throw new TaskError(`cannot read ${path}: ${(error as Error).message}`, path);
  }
  return content.trim() ? { state: 'present', content } : { state: 'empty' };
}

/** The text of an optional task file, or undefined when it is absent or empty. */
export async function readOptionalText(path: string): Promise<string | undefined> {
  const file = await readTextFile(path);
  return file.state === 'present' ? file.content : undefined;
}
