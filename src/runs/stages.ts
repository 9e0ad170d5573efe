import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors/codify-error.js';
import { RunStopped, throwIfStopped } from '../errors/run-stopped.js';
import type { CodifyEvent, StageUsage } from './events.js';
import type { Run } from './run.js';

/** How a stage's result is kept on disk for a resumed run; `false` keeps nothing. */
export type StageStore<T> = false | { save: (value: T) => unknown; load: (stored: unknown) => T };

export interface StageOptions<T> {
  /** Shown with stage-start (what the stage works on). */
  detail?: string;
  /** The stage-end line for its result. */
  describe?: (value: T) => string;
  /**
   * How the result is stored under `stages/` so that a resumed run returns it instead of
   * redoing the stage; default JSON as it is. Stages whose result is not plain data give a
   * codec, or `false` when the stage must run again (its calls are still answered from the log).
   */
  store?: StageStore<T>;
  /**
   * Runs even when a stop was asked: the stage that records what was finished (implement's
   * result.json). It gets the signal through its own work, which should skip slow parts.
   */
  afterStop?: boolean;
}

/** One finished stage, as reports list them. */
export interface StageRecord {
  stage: string;
  durationMs: number;
  usage: StageUsage;
  /** Returned from the stored result of an earlier process, not run again. */
  reused: boolean;
}

const emptyUsage = (): StageUsage => ({
  llmCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: 0,
});

function addUsage(usage: StageUsage, event: CodifyEvent): void {
  if (event.type !== 'llm-end') return;
  usage.llmCalls += 1;
  usage.inputTokens += event.usage.inputTokens;
  usage.outputTokens += event.usage.outputTokens;
  usage.cachedInputTokens += event.usage.cachedInputTokens;
  usage.costUsd += event.costUsd ?? 0;
}

/** `stages/<name>.json`: a stage name made safe as a file name. */
export function stageFile(runDir: string, stage: string): string {
  return join(runDir, 'stages', `${stage.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`);
}

/**
 * A pipeline as a list of named stages (the one lifecycle, ARCHITECTURE.md). Each
 * `run(name, work)` checks the stop signal, emits stage-start and stage-end (with its
 * duration and the model usage of the calls made while it ran), and stores its result so
 * that a resumed run returns it at once instead of redoing the stage.
 */
export class Stages {
  readonly records: StageRecord[] = [];

  constructor(
    private readonly owner: Run,
    private readonly signal?: AbortSignal,
  ) {}

  async run<T>(name: string, work: () => Promise<T>, options: StageOptions<T> = {}): Promise<T> {
    if (options.afterStop !== true) throwIfStopped(this.signal);
    const store = options.store ?? { save: (value: T) => value, load: (stored) => stored as T };
    const path = stageFile(this.owner.dir, name);
    if (store !== false && existsSync(path)) return this.reuse(name, path, store, options);
    this.owner.emit({
      type: 'stage-start',
      stage: name,
      ...(options.detail === undefined ? {} : { detail: options.detail }),
    });
    const usage = emptyUsage();
    const unsubscribe = this.owner.subscribe((event) => addUsage(usage, event));
    const started = Date.now();
    const end = (ok: boolean, detail: string | undefined) => {
      unsubscribe();
      const durationMs = Date.now() - started;
      this.owner.emit({
        type: 'stage-end',
        stage: name,
        ok,
        ...(detail === undefined ? {} : { detail }),
        durationMs,
        usage,
      });
      return durationMs;
    };
    let value: T;
    try {
      value = await work();
    } catch (error) {
      const stopped =
        error instanceof RunStopped ||
        (this.signal?.aborted === true && options.afterStop !== true);
      end(false, stopped ? `stopped: ${errorMessage(error)}` : errorMessage(error));
      throw stopped && !(error instanceof RunStopped) && this.signal !== undefined
        ? RunStopped.from(this.signal)
        : error;
    }
    if (store !== false) writeStored(path, name, store.save(value));
    const durationMs = end(true, options.describe?.(value));
    this.records.push({ stage: name, durationMs, usage, reused: false });
    return value;
  }

  private reuse<T>(
    name: string,
    path: string,
    store: Exclude<StageStore<T>, false>,
    options: StageOptions<T>,
  ): T {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as { value: unknown };
    const value = store.load(stored.value);
    this.owner.emit({ type: 'stage-start', stage: name });
    const described = options.describe?.(value);
    this.owner.emit({
      type: 'stage-end',
      stage: name,
      ok: true,
      detail: `finished before the resume${described === undefined ? '' : `: ${described}`}`,
      durationMs: 0,
      usage: emptyUsage(),
      reused: true,
    });
    this.records.push({ stage: name, durationMs: 0, usage: emptyUsage(), reused: true });
    return value;
  }
}

/** Written whole or not at all: a kill mid-write must not leave a stage that looks finished. */
function writeStored(path: string, stage: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const partial = `${path}.partial`;
  writeFileSync(partial, `${JSON.stringify({ stage, value }, null, 2)}\n`);
  renameSync(partial, path);
}
