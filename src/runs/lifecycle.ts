import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorMessage } from '../errors/codify-error.js';
import { InputError } from '../errors/codify-error.js';
import { RunStopped } from '../errors/run-stopped.js';
import { CompletedCallsCaller } from '../llm/completed-calls-caller.js';
import { signalledCaller } from '../llm/signalled-caller.js';
import type { ModelCaller, RoleName } from '../llm/types.js';
import { eventLogPath } from './event-log-file.js';
import type { CodifyEvent, EventOf, RunMode, RunStatus, RunTotals } from './events.js';
import { findRun } from './find-run.js';
import { readEvents } from './read-events.js';
import { resolveRunsRoot } from './runs-root.js';
import { createRun, openRun, type Run } from './run.js';
import type { RunHost } from './run-host.js';
import { saveRunSettings } from './run-settings.js';
import { Stages } from './stages.js';

/** A new run: its mode, its name in the folder, what it works on, the settings to save. */
export interface NewRun {
  mode: RunMode;
  name: string;
  task?: string;
  models?: Partial<Record<RoleName, string[]>>;
  /** Saved as settings.json, so `codify resume` repeats the run exactly. */
  settings?: unknown;
  /**
   * The run's own folder, for a run whose place is its identity (an evaluation): made when
   * it holds no run yet, else continued by this process whatever its last end (a later
   * run-start with `resumedFrom`, completed calls answered from the log).
   */
  dir?: string;
  /**
   * Log, when continued, how many completed calls its log holds to answer from (default
   * true); a run that says itself what it reuses turns it off.
   */
  announceReuse?: boolean;
}

/** An interrupted run to continue (`codify resume RUN`): its folder or id. */
export interface ResumedRun {
  resume: string;
  models?: Partial<Record<RoleName, string[]>>;
}

/** What a mode's body works with: the run, its stages and a model caller that never pays twice. */
export interface RunScope {
  run: Run;
  stages: Stages;
  /**
   * Answers requests the interrupted process completed from its log; the rest go to the
   * model, each with the host's stop signal.
   */
  models: ModelCaller;
  host: RunHost;
  /** Completed calls of earlier processes that this one has answered from the log so far. */
  reusedCalls: () => number;
}

/** How the body ends the run: run-end's status, reason and result, and what to return. */
export interface RunClosing<T> {
  status: RunStatus;
  reason?: string;
  result?: unknown;
  value: T;
  /**
   * Spending logged in other run folders that this run answers for (an evaluation's runs),
   * added to its run-end totals so every total shown of it counts every call once.
   */
  alsoSpent?: RunTotals;
}

/**
 * The one lifecycle every mode runs through (ARCHITECTURE.md): open a new run or re-open
 * an interrupted one, subscribe the host's sinks, build the model caller (answering
 * completed calls from the log on resume), run the body's stages, and close with run-end.
 * An error closes the run `failed`; a stop (RunStopped, or the host's signal aborted)
 * closes it `stopped` with what it finished, and RunStopped reaches the interface, which
 * exits with the stop's code. Nothing here or in a body exits the process.
 */
export async function withRun<T>(
  opening: NewRun | ResumedRun,
  host: RunHost,
  makeModels: (run: Run) => ModelCaller,
  body: (scope: RunScope) => Promise<RunClosing<T>>,
): Promise<T> {
  const run = 'resume' in opening ? reopen(opening, host) : create(opening, host);
  host.onRun?.(run);
  try {
    if (!('resume' in opening) && opening.settings !== undefined) {
      saveRunSettings(run.dir, opening.mode, opening.settings);
    }
    // Every request carries the stop signal, so a stop cancels the call in flight.
    const inner = signalledCaller(makeModels(run), host.signal);
    const models = run.resumed ? CompletedCallsCaller.fromEvents(run.earlier, inner) : inner;
    const announce = 'resume' in opening || opening.announceReuse !== false;
    if (announce && models instanceof CompletedCallsCaller && models.unused > 0) {
      run.emit({
        type: 'log',
        level: 'info',
        message: `resuming: ${models.unused} completed model calls are answered from the log, not paid again`,
      });
    }
    const closing = await body({
      run,
      stages: new Stages(run, host.signal),
      models,
      host,
      reusedCalls: () => (models instanceof CompletedCallsCaller ? models.reused : 0),
    });
    run.close(closing.status, closing.reason, closing.result, closing.alsoSpent);
    return closing.value;
  } catch (error) {
    const stopped =
      error instanceof RunStopped ||
      (host.signal?.aborted === true && !(error instanceof InputError));
    run.close(stopped ? 'stopped' : 'failed', errorMessage(error));
    if (stopped && !(error instanceof RunStopped) && host.signal !== undefined) {
      throw RunStopped.from(host.signal);
    }
    throw error;
  }
}

function create(opening: NewRun, host: RunHost): Run {
  if (opening.dir !== undefined && existsSync(eventLogPath(resolve(opening.dir)))) {
    return openRun(resolve(opening.dir), {
      ...(host.argv === undefined ? {} : { argv: host.argv }),
      ...(host.sinks === undefined ? {} : { sinks: host.sinks }),
      ...(opening.models === undefined ? {} : { models: opening.models }),
    });
  }
  return createRun({
    ...(opening.dir === undefined ? {} : { dir: opening.dir }),
    mode: opening.mode,
    name: opening.name,
    ...(opening.task === undefined ? {} : { task: opening.task }),
    ...(opening.models === undefined ? {} : { models: opening.models }),
    ...(host.runsRoot === undefined ? {} : { root: host.runsRoot }),
    ...(host.argv === undefined ? {} : { argv: host.argv }),
    ...(host.sinks === undefined ? {} : { sinks: host.sinks }),
  });
}

function reopen(opening: ResumedRun, host: RunHost): Run {
  const dir = findRun(opening.resume, resolveRunsRoot(host.runsRoot));
  // Checked before the run is opened, so a refused resume writes nothing into it.
  const ended = lastEnd(readEvents(dir).events);
  // Failed and stopped runs continue, and so does one that spent its budget when the mode
  // raises it (implement decides that before it gets here); a completed run is done.
  if (ended?.status === 'completed') {
    throw new InputError(`${dir} has already ended (completed); there is nothing to resume`);
  }
  return openRun(dir, {
    ...(host.runsRoot === undefined ? {} : { root: host.runsRoot }),
    ...(host.argv === undefined ? {} : { argv: host.argv }),
    ...(host.sinks === undefined ? {} : { sinks: host.sinks }),
    ...(opening.models === undefined ? {} : { models: opening.models }),
  });
}

function lastEnd(events: readonly CodifyEvent[]): EventOf<'run-end'> | undefined {
  return events.findLast((event): event is EventOf<'run-end'> => event.type === 'run-end');
}
