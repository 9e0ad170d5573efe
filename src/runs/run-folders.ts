import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventLogPath } from './event-log-file.js';

/** Ids of the run folders under a root (folders holding events.jsonl), oldest first. */
export function listRunIds(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(eventLogPath(join(root, entry.name))))
    .map((entry) => entry.name)
    .sort();
}
