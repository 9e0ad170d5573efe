import { InputError } from '../errors/codify-error.js';
import { existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { processStartTicks } from './process-identity.js';
import { basename, join, resolve } from 'node:path';
import type { RoleName } from '../llm/types.js';
import type { RunContext } from './context.js';
import { eventLogPath } from './event-log-file.js';
import { EventLogWriter } from './event-log-writer.js';
import type {
  CodifyEvent,
  CodifyEventBody,
  EventOf,
  EventSink,
  RunMode,
  RunStatus,
  RunTotals,
} from './events.js';
import { findRun } from './find-run.js';
import { readEvents } from './read-events.js';
import { runFolderName } from './run-folder-name.js';
import { addToTotals, totalsOf } from './run-totals.js';
import { resolveRunsRoot } from './runs-root.js';

/** A run being recorded: its folder, its event log and the subscribers to its stream. */
export interface Run extends RunContext {
  readonly mode: RunMode;
  readonly name: string;
  /** Appends to events.jsonl (seq and time assigned here), then hands the event to subscribers. */
  emit(body: CodifyEventBody): CodifyEvent;
  /** Adds a consumer of every later event; returns a function that removes it. */
  subscribe(sink: EventSink): () => void;
  /**
   * Writes run-end (with the run's totals, plus `alsoSpent`: what runs in other folders that
   * this one answers for spent) and closes the log; later calls do nothing.
   */
  close(
    status: RunStatus,
    reason?: string,
    result?: unknown,
    alsoSpent?: RunTotals,
  ): CodifyEvent | undefined;
  /** Steps, tokens and cost so far, over the whole log. */
  totals(): RunTotals;
  readonly closed: boolean;
  /** The events written before this process opened the run (empty for a new run). */
  readonly earlier: readonly CodifyEvent[];
  /** True when this process continues a run an earlier process started (`codify resume`). */
  readonly resumed: boolean;
  /** When this process opened the run (ms since the epoch). */
  readonly openedAt: number;
}

export interface CreateRunOptions {
  /** Where run folders go; default CODIFY_RUNS_DIR, else `<cwd>/runs`. */
  root?: string;
  /** This exact folder instead of a new one under `root` (a run whose place is its identity). */
  dir?: string;
  mode: RunMode;
  name: string;
  argv?: string[];
  models?: Partial<Record<RoleName, string[]>>;
  task?: string;
  /** The run's start time; default now (tests pin it). */
  now?: Date;
  /** Subscribers from the first event on, so a renderer also sees run-start. */
  sinks?: EventSink[];
}

/** Makes `runs/<yyyymmdd-hhmmss>-<name>-<short id>/` (or `dir`) and writes its run-start event. */
export function createRun(options: CreateRunOptions): Run {
  const { id, dir } = options.dir === undefined ? newFolder(options) : exactFolder(options.dir);
  mkdirSync(dir, { recursive: true });
  const run = new RecordedRun(
    id,
    dir,
    options.mode,
    options.name,
    0,
    [],
    EventLogWriter.open(eventLogPath(dir)),
  );
  for (const sink of options.sinks ?? []) run.subscribe(sink);
  run.emit({
    type: 'run-start',
    runId: id,
    mode: options.mode,
    name: options.name,
    argv: options.argv ?? process.argv.slice(2),
    models: options.models ?? {},
    ...(options.task === undefined ? {} : { task: options.task }),
    cwd: process.cwd(),
    pid: process.pid,
    ...ownProcessStart(),
    host: hostname(),
  });
  return run;
}

function newFolder(options: CreateRunOptions): { id: string; dir: string } {
  const root = resolveRunsRoot(options.root);
  const now = options.now ?? new Date();
  let id = runFolderName(options.name, now);
  while (existsSync(join(root, id))) id = runFolderName(options.name, now);
  return { id, dir: join(root, id) };
}

function exactFolder(dir: string): { id: string; dir: string } {
  const absolute = resolve(dir);
  if (existsSync(eventLogPath(absolute))) {
    throw new Error(`${absolute} already holds a run; open it with openRun to continue it`);
  }
  return { id: basename(absolute), dir: absolute };
}

export interface OpenRunOptions {
  root?: string;
  argv?: string[];
  /** Models for the continued run; default those of the run's first run-start. */
  models?: Partial<Record<RoleName, string[]>>;
  /** Subscribers from the reopening run-start on. */
  sinks?: EventSink[];
}

/**
 * Re-opens a run for appending (for `codify resume`): sequence numbers continue, a half-written
 * last line left by a kill is cut off, and a new run-start with `resumedFrom` (the last seq
 * before this process) records who continues it.
 */
export function openRun(dirOrId: string, options: OpenRunOptions = {}): Run {
  const dir = findRun(dirOrId, resolveRunsRoot(options.root));
  const { writer, droppedBytes } = EventLogWriter.reopen(eventLogPath(dir));
  const { events, problems } = readEvents(dir);
  const start = events.find((event): event is EventOf<'run-start'> => event.type === 'run-start');
  if (start === undefined) {
    writer.close();
    throw new InputError(`${dir}/events.jsonl has no run-start event; it cannot be resumed`);
  }
  const lastSeq = events.reduce((highest, event) => Math.max(highest, event.seq), 0);
  const run = new RecordedRun(basename(dir), dir, start.mode, start.name, lastSeq, events, writer);
  for (const sink of options.sinks ?? []) run.subscribe(sink);
  run.emit({
    type: 'run-start',
    runId: start.runId,
    mode: start.mode,
    name: start.name,
    argv: options.argv ?? process.argv.slice(2),
    models: options.models ?? start.models,
    ...(start.task === undefined ? {} : { task: start.task }),
    resumedFrom: lastSeq,
    pid: process.pid,
    ...ownProcessStart(),
    host: hostname(),
  });
  if (droppedBytes > 0) {
    run.emit({
      type: 'log',
      level: 'warn',
      message: `dropped ${droppedBytes} bytes of an event that was being written when the run stopped`,
    });
  }
  for (const problem of problems) {
    run.emit({
      type: 'log',
      level: 'warn',
      message: `events.jsonl line ${problem.line} is not an event and was skipped: ${problem.message}`,
    });
  }
  return run;
}

class RecordedRun implements Run {
  private readonly sinks = new Set<EventSink>();
  readonly openedAt = Date.now();
  private readonly runningTotals: RunTotals;

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly mode: RunMode,
    readonly name: string,
    private seq: number,
    readonly earlier: readonly CodifyEvent[],
    private readonly writer: EventLogWriter,
  ) {
    this.runningTotals = totalsOf(earlier);
  }

  get resumed(): boolean {
    return this.earlier.length > 0;
  }

  emit(body: CodifyEventBody): CodifyEvent {
    if (this.writer.closed) {
      throw new Error(`run ${this.id} is closed; "${body.type}" was emitted after run-end`);
    }
    this.seq += 1;
    const event = { ...body, seq: this.seq, time: new Date().toISOString() };
    this.writer.append(event);
    addToTotals(this.runningTotals, event);
    for (const sink of this.sinks) {
      try {
        sink(event);
      } catch (error) {
        // A broken display must not stop the run; the log already holds the event.
        process.stderr.write(
          `codify: an event subscriber failed on ${event.type}: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
    return event;
  }

  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => {
      this.sinks.delete(sink);
    };
  }

  close(
    status: RunStatus,
    reason?: string,
    result?: unknown,
    alsoSpent?: RunTotals,
  ): CodifyEvent | undefined {
    if (this.writer.closed) return undefined;
    const totals = { ...this.runningTotals };
    if (alsoSpent !== undefined) {
      for (const key of Object.keys(totals) as (keyof RunTotals)[]) totals[key] += alsoSpent[key];
    }
    const event = this.emit({
      type: 'run-end',
      status,
      ...(reason === undefined ? {} : { reason }),
      ...(result === undefined ? {} : { result }),
      totals,
    });
    this.writer.close();
    return event;
  }

  totals(): RunTotals {
    return { ...this.runningTotals };
  }

  get closed(): boolean {
    return this.writer.closed;
  }
}

/** This process's start, recorded beside its pid (absent where there is no /proc). */
function ownProcessStart(): { processStart?: string } {
  const start = processStartTicks(process.pid);
  return start === undefined ? {} : { processStart: start };
}
