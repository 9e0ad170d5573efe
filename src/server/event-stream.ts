import type { IncomingMessage, ServerResponse } from 'node:http';
import { eventLogPath } from '../runs/event-log-file.js';
import { followLogLines } from './follow-log-lines.js';
import { leanEventLine } from './lean-event.js';

export interface EventStreamOptions {
  pollMs?: number;
  /** Leave out prompts and checkpoints (lean-event.ts); the web app asks for this. */
  lean?: boolean;
  /** Milliseconds between comment lines that keep proxies and the browser from timing out. */
  heartbeatMs?: number;
}

/**
 * Streams a run's events as server-sent events: every event already in the log, then each
 * one appended by whatever process is writing the run, until the browser goes away. Each
 * message's id is its position in the log, so a reconnecting EventSource (which sends
 * Last-Event-ID) continues where it stopped instead of receiving everything twice.
 *
 * A client that reads slowly holds the stream back: once the socket's buffer is full the log
 * is not read further until it drains, so what is queued for one client stays near one event
 * plus the socket's high-water mark, however long the log.
 */
export async function streamRunEvents(
  request: IncomingMessage,
  response: ServerResponse,
  runDirectory: string,
  options: EventStreamOptions = {},
): Promise<void> {
  const resumeAfter = Number(request.headers['last-event-id'] ?? '0');
  const skip = Number.isInteger(resumeAfter) && resumeAfter > 0 ? resumeAfter : 0;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.write('retry: 1000\n\n');
  const controller = new AbortController();
  const stop = () => controller.abort();
  request.on('close', stop);
  response.on('close', stop);
  const heartbeat = setInterval(() => {
    // A client that has not taken what was sent needs no keep-alive, and must not get more.
    if (response.writableLength === 0) response.write(': keep-alive\n\n');
  }, options.heartbeatMs ?? 15_000);
  let position = 0;
  try {
    await followLogLines(
      eventLogPath(runDirectory),
      async ({ text, event }) => {
        position += 1;
        if (position <= skip) return;
        const data = options.lean === true ? leanEventLine(text, event) : text;
        if (!response.write(`id: ${position}\ndata: ${data}\n\n`)) {
          await drained(response, controller.signal);
        }
      },
      controller.signal,
      { pollMs: options.pollMs ?? 250 },
    );
  } finally {
    clearInterval(heartbeat);
    request.off('close', stop);
    response.off('close', stop);
    response.end();
  }
}

/** Resolves when the response can take more, or when the client has gone. */
function drained(response: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    response.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
