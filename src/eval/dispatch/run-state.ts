import { join } from 'node:path';
import type { RunMode, RunStatus } from '../../runs/events.js';
import { readEvents } from '../../runs/read-events.js';
import { listRunIds } from '../../runs/run-folders.js';
import type { PlannedRun } from '../suite/plan-runs.js';

/** Where one combination stands, read from its run folders. */
export type RunState =
  | { kind: 'new' }
  | { kind: 'finished'; runDir: string; status: RunStatus }
  | { kind: 'interrupted'; runDir: string };

/**
 * The newest run folder under a combination's root decides: it finished when its log
 * ends with run-end (other than `stopped`), otherwise it was killed or stopped mid-run. Older folders are earlier attempts
 * (interrupted paper runs are started again, not continued) and are ignored. With `mode`,
 * only runs of that mode count: an exploration's experiments are implement runs created in
 * the same root after it, and must not be taken for it.
 */
export function runState(root: string, mode?: RunMode): RunState {
  const ids = listRunIds(root);
  let newest: { dir: string; time: number } | undefined;
  for (const id of ids) {
    const dir = join(root, id);
    const first = readEvents(dir).events[0];
    if (mode !== undefined && first?.type === 'run-start' && first.mode !== mode) continue;
    const time = first === undefined ? 0 : Date.parse(first.time);
    if (newest === undefined || time >= newest.time) newest = { dir, time };
  }
  if (newest === undefined) return { kind: 'new' };
  const { events } = readEvents(newest.dir);
  const end = events.findLast((event) => event.type === 'run-end');
  // A run stopped by the evaluation's stop signal is continued like a killed one.
  if (end?.type === 'run-end' && end.status !== 'stopped')
    return { kind: 'finished', runDir: newest.dir, status: end.status };
  return { kind: 'interrupted', runDir: newest.dir };
}

/** Where a planned combination stands. */
export const stateOf = (planned: PlannedRun): RunState =>
  runState(planned.root, planned.item.kind === 'explore' ? 'explore' : undefined);
