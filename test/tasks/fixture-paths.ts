import { fileURLToPath } from 'node:url';

/** Absolute path of a task fixture under test/fixtures/tasks/. */
export function fixtureTask(name: string): string {
  return fileURLToPath(new URL(`../fixtures/tasks/${name}`, import.meta.url));
}
