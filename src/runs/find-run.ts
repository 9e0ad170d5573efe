import { InputError } from '../errors/codify-error.js';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { editDistance } from './edit-distance.js';
import { eventLogPath } from './event-log-file.js';
import { readFirstEvent } from './read-first-event.js';
import { listRunIds } from './run-folders.js';

/** A RUN argument that names no run, or several; the message says which runs exist. */
export class RunNotFoundError extends InputError {
  constructor(
    message: string,
    readonly candidates: string[],
  ) {
    super(message);
    this.name = 'RunNotFoundError';
  }
}

/**
 * Finds a run folder from what a person typed: a folder path, a run id, `last`, a unique
 * prefix of an id, or a unique part of one (e.g. the name). Returns the absolute folder.
 */
export function findRun(reference: string, root: string): string {
  const asPath = resolve(reference);
  if (existsSync(eventLogPath(asPath))) return asPath;
  const ids = listRunIds(root);
  if (ids.length === 0) {
    throw new RunNotFoundError(
      `no run "${reference}": ${root} holds no runs (set --root or CODIFY_RUNS_DIR to where they are)`,
      [],
    );
  }
  if (reference === 'last' || reference === 'latest') return join(root, newestRun(root, ids));
  const wanted = basename(reference);
  if (ids.includes(wanted)) return join(root, wanted);
  const byPrefix = ids.filter((id) => id.startsWith(wanted));
  const matches = byPrefix.length > 0 ? byPrefix : ids.filter((id) => id.includes(wanted));
  if (matches.length === 1) return join(root, matches[0] ?? '');
  if (matches.length > 1) {
    const shown = matches.slice(-10).reverse();
    throw new RunNotFoundError(
      `"${reference}" matches ${matches.length} runs in ${root}; give more of the id:\n${shown.map((id) => `  ${id}`).join('\n')}`,
      shown,
    );
  }
  const closest = closestIds(wanted, ids, 5);
  throw new RunNotFoundError(
    `no run "${reference}" in ${root}. Closest:\n${closest.map((id) => `  ${id}`).join('\n')}\n(or use "last" for the newest run)`,
    closest,
  );
}

/** The ids nearest to what was typed, comparing with the name part and with the whole id. */
function closestIds(wanted: string, ids: string[], count: number): string[] {
  const scored = ids.map((id) => {
    const namePart = id.replace(/^\d{8}-\d{6}-/, '').replace(/-[0-9a-f]{6}$/, '');
    const score = Math.min(editDistance(wanted, namePart), editDistance(wanted, id));
    return { id, score };
  });
  scored.sort((left, right) => left.score - right.score || right.id.localeCompare(left.id));
  return scored.slice(0, count).map((entry) => entry.id);
}

/** The newest id; runs started in the same second are told apart by their first event's time. */
function newestRun(root: string, ids: string[]): string {
  const newestStamp = (ids.at(-1) ?? '').slice(0, 15);
  const sameSecond = ids.filter((id) => id.slice(0, 15) === newestStamp);
  let best = ids.at(-1) ?? '';
  let bestTime = -Infinity;
  for (const id of sameSecond) {
    const time = Date.parse(readFirstEvent(join(root, id))?.time ?? '');
    if (!Number.isNaN(time) && time >= bestTime) {
      best = id;
      bestTime = time;
    }
  }
  return best;
}
