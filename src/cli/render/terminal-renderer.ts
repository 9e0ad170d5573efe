import type { CodifyEvent, EventSink } from '../../runs/events.js';
import { formatTimelineLine } from './format-event.js';
import { formatRunStatus, initialRunStatus, updateRunStatus } from './run-status.js';

/** The part of a stream the renderer writes to (process.stdout, or a test buffer). */
export interface RenderStream {
  write(text: string): unknown;
  columns?: number;
}

export interface TerminalRendererOptions {
  /** Print every event as one JSON line (`--json`, `--output-format stream-json`). */
  json?: boolean;
  stream?: RenderStream;
  /** Redraw a status line in place; default: whether the stream is a TTY. */
  isTTY?: boolean;
  /** Milliseconds between redraws of the elapsed time on a TTY; 0 turns the timer off. */
  tickMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/** An event sink (subscribe it to a run) that must be finished when the run ends. */
export interface TerminalRenderer extends EventSink {
  /** Clears the status line and stops the timer; safe to call twice. */
  finish(): void;
}

const clearLine = '\r\x1b[2K';

/**
 * Shows a run's progress: on a TTY a status line (stage, step, action, model waited on,
 * tokens, cost, elapsed) redrawn in place with a line above it per completed step, action,
 * execution or LLM call; plain lines without redraws elsewhere; JSON lines with `json`.
 */
export function createTerminalRenderer(options: TerminalRendererOptions = {}): TerminalRenderer {
  const stream: RenderStream = options.stream ?? process.stdout;
  const json = options.json ?? false;
  const live =
    !json &&
    (options.isTTY ?? ('isTTY' in stream && (stream as { isTTY?: boolean }).isTTY === true));
  const now = options.now ?? Date.now;
  const state = initialRunStatus();
  let statusShown = false;
  let finished = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const drawStatus = () => {
    // A pseudo-terminal may report 0 columns; assume a common width then.
    const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 100;
    const width = Math.max(20, columns - 1);
    const text = formatRunStatus(state, now());
    stream.write(`${clearLine}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    statusShown = true;
  };

  const sink = (event: CodifyEvent): void => {
    if (finished) return;
    if (json) {
      stream.write(`${JSON.stringify(event)}\n`);
      return;
    }
    updateRunStatus(state, event);
    const line = formatTimelineLine(event, state.startMs ?? Date.parse(event.time));
    if (!live) {
      if (line !== undefined) stream.write(`${line}\n`);
      return;
    }
    if (line !== undefined) stream.write(`${statusShown ? clearLine : ''}${line}\n`);
    statusShown = false;
    if (event.type === 'run-end') return;
    drawStatus();
    const tickMs = options.tickMs ?? 1000;
    if (timer === undefined && tickMs > 0) {
      timer = setInterval(drawStatus, tickMs);
      // The elapsed-time tick must never keep the process alive on its own.
      timer.unref();
    }
  };

  const finish = () => {
    if (finished) return;
    finished = true;
    if (timer !== undefined) clearInterval(timer);
    if (statusShown) stream.write(clearLine);
    statusShown = false;
  };

  return Object.assign(sink, { finish });
}
