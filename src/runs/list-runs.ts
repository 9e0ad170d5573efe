import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { eventLogPath } from './event-log-file.js';
import type { CodifyEvent, EventOf, RunMode, RunStatus, RunTotals } from './events.js';
import { parseEventLine, parseEventLines } from './parse-event-lines.js';
import { isRecordedProcessAlive } from './process-identity.js';
import { readFirstEventFrom } from './read-first-event.js';
import { listRunIds } from './run-folders.js';
import { addToTotals, emptyTotals } from './run-totals.js';

/**
 * A run without run-end is `running` while the process that wrote its last run-start is alive,
 * and `killed` once it is not. For a run written on another host, where the process cannot be
 * checked, it counts as running until its log has been quiet for `quietMsForOtherHosts`.
 */
export type RunListStatus = RunStatus | 'running' | 'killed' | 'unreadable';

export interface RunSummary {
  id: string;
  dir: string;
  name: string;
  mode: RunMode | 'unknown';
  status: RunListStatus;
  /** ISO time of the first event. */
  startedAt: string;
  /** ISO time of the last complete event. */
  lastEventAt: string;
  totals: RunTotals;
  /** Why the log could not be summarized (status `unreadable`). */
  problem?: string;
}

export interface ListRunsOptions {
  /** See RunListStatus; default 30 minutes. */
  quietMsForOtherHosts?: number;
  now?: number;
}

/** Summaries of every run under a root, oldest first (by the time of their first event). */
export function listRuns(root: string, options: ListRunsOptions = {}): RunSummary[] {
  return listRunIds(root)
    .map((id) => summarizeRun(join(root, id), options))
    .sort(
      (left, right) =>
        Date.parse(left.startedAt) - Date.parse(right.startedAt) || left.id.localeCompare(right.id),
    );
}

const headBytes = 64 * 1024;

/**
 * Summarizes one run. A finished run is read at its two ends only (run-start, and run-end with
 * its totals); a run still going, or one written before totals existed, is read in full.
 */
export function summarizeRun(dir: string, options: ListRunsOptions = {}): RunSummary {
  const id = dir.split('/').at(-1) ?? dir;
  const descriptor = openSync(eventLogPath(dir), 'r');
  try {
    const stats = fstatSync(descriptor);
    const size = stats.size;
    const first = readFirstEventFrom(descriptor, size);
    const last = readLastLine(descriptor, size);
    if (first?.type === 'run-start' && last?.type === 'run-end' && last.totals !== undefined) {
      return {
        id,
        dir,
        name: first.name,
        mode: first.mode,
        status: last.status,
        startedAt: first.time,
        lastEventAt: last.time,
        totals: last.totals,
      };
    }
    return summarizeEvents(id, dir, foldLog(descriptor, size), stats.mtimeMs, options);
  } finally {
    closeSync(descriptor);
  }
}

/** What a summary needs from a whole log, gathered a chunk at a time. */
interface LogFold {
  start?: EventOf<'run-start'>;
  latestStart?: EventOf<'run-start'>;
  /** The run-end after the latest run-start, if any. */
  end?: EventOf<'run-end'>;
  lastEvent?: CodifyEvent;
  totals: RunTotals;
}

const foldChunkBytes = 256 * 1024;

/**
 * Reads a log that has no run-end with totals (a live run, polled by every open page) a chunk
 * at a time, keeping only what the summary needs: a 50 MB log is never held whole.
 */
function foldLog(descriptor: number, size: number): LogFold {
  const fold: LogFold = { totals: emptyTotals() };
  let offset = 0;
  let pending = Buffer.alloc(0);
  while (offset < size) {
    const chunk = Buffer.alloc(Math.min(foldChunkBytes, size - offset));
    const read = readSync(descriptor, chunk, 0, chunk.length, offset);
    if (read === 0) break;
    offset += read;
    pending = Buffer.concat([pending, chunk.subarray(0, read)]);
    const parsed = parseEventLines(pending);
    pending = Buffer.from(pending.subarray(parsed.consumedBytes));
    for (const event of parsed.events) {
      addToTotals(fold.totals, event);
      fold.lastEvent = event;
      if (event.type === 'run-start') {
        fold.start ??= event;
        fold.latestStart = event;
        fold.end = undefined;
      } else if (event.type === 'run-end') fold.end = event;
    }
  }
  return fold;
}

function summarizeEvents(
  id: string,
  dir: string,
  fold: LogFold,
  modifiedMs: number,
  options: ListRunsOptions,
): RunSummary {
  const { start, latestStart, end, lastEvent, totals } = fold;
  if (start === undefined || latestStart === undefined || lastEvent === undefined) {
    return {
      id,
      dir,
      name: id,
      mode: 'unknown',
      status: 'unreadable',
      startedAt: new Date(modifiedMs).toISOString(),
      lastEventAt: new Date(modifiedMs).toISOString(),
      totals,
      problem: 'events.jsonl has no run-start event',
    };
  }
  return {
    id,
    dir,
    name: start.name,
    mode: start.mode,
    status: end?.status ?? liveness(latestStart, modifiedMs, options),
    startedAt: start.time,
    lastEventAt: lastEvent.time,
    totals,
  };
}

function liveness(
  start: EventOf<'run-start'>,
  modifiedMs: number,
  options: ListRunsOptions,
): 'running' | 'killed' {
  if (start.pid !== undefined && start.host === hostname()) {
    return isRecordedProcessAlive(start) ? 'running' : 'killed';
  }
  const quietMs = (options.now ?? Date.now()) - modifiedMs;
  return quietMs > (options.quietMsForOtherHosts ?? 30 * 60_000) ? 'killed' : 'running';
}

/** The last complete line, if it fits in the tail chunk; undefined sends the caller to a full read. */
function readLastLine(descriptor: number, size: number): CodifyEvent | undefined {
  const length = Math.min(size, headBytes);
  const start = size - length;
  const chunk = Buffer.alloc(length);
  readSync(descriptor, chunk, 0, length, start);
  const end = chunk.lastIndexOf(0x0a);
  if (end === -1) return undefined;
  const previous = end === 0 ? -1 : chunk.lastIndexOf(0x0a, end - 1);
  if (previous === -1 && start > 0) return undefined;
  const parsed = parseEventLine(chunk.toString('utf8', previous + 1, end));
  return typeof parsed === 'string' ? undefined : parsed;
}
