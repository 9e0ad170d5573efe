import type { CodifyEvent, EventOf } from '../../runs/events.js';
import { formatDollars, formatDuration, formatTokens } from '../render/format-values.js';
import type { RenderStream } from '../render/terminal-renderer.js';

export interface EvalRenderer {
  (event: CodifyEvent): void;
  finish(): void;
}

const clearLine = '\r\x1b[2K';

/** `3 done · 2 running · 5 left · 1m20s · 120k tokens · $0.1200 · about 3m05s left`. */
export function formatEvalProgress(progress: EventOf<'eval-progress'>, elapsedMs: number): string {
  return [
    `${progress.done} done`,
    `${progress.running} running`,
    `${progress.left} left`,
    ...(progress.workers === undefined
      ? []
      : [`${progress.workers} worker${progress.workers === 1 ? '' : 's'}`]),
    formatDuration(elapsedMs),
    `${formatTokens(progress.tokens)} tokens`,
    formatDollars(progress.costUsd),
    progress.remainingMs === null
      ? 'estimate after the first run'
      : `about ${formatDuration(progress.remainingMs)} left`,
  ].join(' · ');
}

/** `, 2 failed before (tried again)`: runs an error ended in an earlier invocation. */
function failedBefore(event: EventOf<'eval-start'>): string {
  if (event.failed === undefined || event.failed === 0) return '';
  return `, ${event.failed} failed before (${event.retried === true ? 'tried again' : 'kept: --keep-failures'})`;
}

function describe(event: CodifyEvent): string | undefined {
  switch (event.type) {
    case 'eval-start':
      return `evaluation ${event.suite}: ${event.runs} runs, ${event.finished} already finished${failedBefore(event)}, ${event.dispatch === 'queue' ? "on the queue's workers" : `${event.parallel} at a time`}`;
    case 'starter-measure':
      return `starter ${event.item} #${event.trial}: ${event.metric ?? `no metric (exit code ${String(event.exitCode)})`}`;
    case 'seed-measure':
      return `${event.key === null ? `starter ${event.item}` : `final ${event.key}`} on seed ${event.seed}: ${event.metric ?? `no metric (exit code ${String(event.exitCode)})`}`;
    case 'eval-run-start':
      return `${event.resumed ? 'resume' : 'start'} ${event.key} → ${event.runDir}`;
    case 'eval-run-end':
      return `end ${event.key}: ${event.status} in ${formatDuration(event.durationMs)}${event.message === undefined ? '' : ` (${event.message})`}`;
    case 'eval-worker-lost':
      return `worker ${event.worker} is gone, holding ${event.runs.join(', ')}: back to the queue`;
    case 'eval-run-retaken':
      return `${event.key} taken again by worker ${event.worker}, ${formatDuration(event.afterMs)} after ${event.lostWorker} was lost`;
    case 'log':
      return event.level === 'info' ? event.message : `${event.level}: ${event.message}`;
    case 'eval-end':
      return `evaluation finished: ${event.done} runs done, ${event.missing} missing${event.failed === undefined || event.failed === 0 ? '' : `, ${event.failed} failed`}${event.report === undefined ? '' : `; report: ${event.report}`}`;
    default:
      return undefined;
  }
}

/**
 * Shows an evaluation's progress: a line per run started or ended and, on a TTY, a status
 * line (done / running / left, elapsed, tokens, cost, estimate) redrawn in place every
 * second; every event as a JSON line with `json`.
 */
export function createEvalRenderer(options: {
  json: boolean;
  stream?: RenderStream & { isTTY?: boolean };
}): EvalRenderer {
  const stream = options.stream ?? process.stdout;
  const live = !options.json && stream.isTTY === true;
  let last: EventOf<'eval-progress'> | undefined;
  let lastAt = Date.now();
  let shown = false;
  let printedDone = -1;
  const draw = () => {
    if (!live || last === undefined) return;
    const text = formatEvalProgress(last, last.elapsedMs + Date.now() - lastAt);
    const width = Math.max(20, (stream.columns ?? 100) - 1);
    stream.write(`${clearLine}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    shown = true;
  };
  const timer = live ? setInterval(draw, 1000) : undefined;
  timer?.unref();
  const renderer = ((event: CodifyEvent) => {
    if (options.json) {
      stream.write(`${JSON.stringify(event)}\n`);
      return;
    }
    if (event.type === 'eval-progress') {
      last = event;
      lastAt = Date.now();
      if (live) draw();
      else if (event.done !== printedDone) {
        // Without a TTY, one plain line each time a run finishes is enough.
        printedDone = event.done;
        stream.write(`${formatEvalProgress(event, event.elapsedMs)}\n`);
      }
      return;
    }
    const text = describe(event);
    if (text === undefined) return;
    stream.write(`${shown ? clearLine : ''}${text}\n`);
    shown = false;
    draw();
  }) as EvalRenderer;
  renderer.finish = () => {
    if (timer !== undefined) clearInterval(timer);
    if (shown) stream.write(`${clearLine}`);
    shown = false;
  };
  return renderer;
}
