import { join } from 'node:path';
import type { RunMode, RunStatus } from '../../runs/events.js';
import { readEvents } from '../../runs/read-events.js';
import { listRunIds } from '../../runs/run-folders.js';
import type { PlannedRun } from '../suite/plan-runs.js';

/** Where one combination stands, read from its run folders. */
export type RunState =
  | { kind: 'new' }
  | { kind: 'finished'; runDir: string; status: RunStatus }
  /**
   * Ended `failed` without a result: an error stopped it (a model that could not be
   * reached, a recording that is missing), so it says nothing about the method. Tried
   * again by the next invocation unless failures are kept.
   */
  | { kind: 'failed'; runDir: string; reason: string }
  | { kind: 'interrupted'; runDir: string };

/**
 * The run folders of a combination, oldest first: every attempt at it (a run killed
 * before it saved its settings, or one that failed, is started again in a new folder).
 * With `mode`, only runs of that mode count: an exploration's experiments are implement
 * runs created in the same root after it, and must not be taken for it.
 */
export function attemptFolders(root: string, mode?: RunMode): string[] {
  const attempts: { dir: string; time: number }[] = [];
  for (const id of listRunIds(root)) {
    const dir = join(root, id);
    const first = readEvents(dir).events[0];
    if (mode !== undefined && first?.type === 'run-start' && first.mode !== mode) continue;
    attempts.push({ dir, time: first === undefined ? 0 : Date.parse(first.time) });
  }
  // Stable: folders started in the same millisecond keep their (time-named) order.
  return attempts.sort((one, other) => one.time - other.time).map((attempt) => attempt.dir);
}

/**
 * The newest run folder under a combination's root decides: it finished when its log
 * ends with run-end (other than `stopped`), failed when that run-end is `failed` without a
 * result (an error ended it), otherwise it was killed or stopped mid-run. Older folders
 * are earlier attempts.
 */
export function runState(root: string, mode?: RunMode): RunState {
  const newest = attemptFolders(root, mode).at(-1);
  if (newest === undefined) return { kind: 'new' };
  const { events } = readEvents(newest);
  const end = events.findLast((event) => event.type === 'run-end');
  if (end?.type !== 'run-end' || end.status === 'stopped') {
    // A run stopped by the evaluation's stop signal is continued like a killed one.
    return { kind: 'interrupted', runDir: newest };
  }
  if (end.status === 'failed' && end.result === undefined) {
    return { kind: 'failed', runDir: newest, reason: end.reason ?? 'the run ended in an error' };
  }
  return { kind: 'finished', runDir: newest, status: end.status };
}

/** Where a planned combination stands. */
export const stateOf = (planned: PlannedRun): RunState =>
  runState(planned.root, planned.item.kind === 'explore' ? 'explore' : undefined);
