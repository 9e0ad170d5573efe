import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { summarizeRun, type RunSummary } from '../runs/list-runs.js';
import { tokenMatches, tokenOfRequest } from './access-token.js';
import { appContentPolicy, runFileContentPolicy } from './content-policy.js';
import type { RunDetail, RunListEntry } from './api-types.js';
import { readEventLogPage } from './event-log-page.js';
import { readLoggedPrompt } from './logged-prompt.js';
import { streamRunEvents } from './event-stream.js';
import { HttpError } from './http-error.js';
import { readRunEdits } from './run-edits.js';
import { listRunFiles } from './run-files.js';
import { runOutcome } from './run-outcome.js';
import { hasPlainEventLog, readRunFile, runDirectoryOf } from './run-paths.js';
import { listRunIds } from '../runs/run-folders.js';
import { listFeedback, unansweredRequests } from './run-feedback.js';
import { readRunTraces } from './run-traces.js';
import { serveAppFile } from './static-files.js';
import { handleControl } from './handle-control.js';
import type { RequestContext } from './request-context.js';

/** Run files the browser may show as images; everything else is sent as plain text. */
const imageTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
};

/** About this much of a run's log goes in one page of GET /api/runs/:id. */
const detailPageBytes = 1024 * 1024;

/**
 * Every request. The app itself (index.html and its built assets: the same public files for
 * everyone, no run data) is served without the token; everything under /api needs it.
 * Every response carries the app's content policy (only its own origin).
 */
export async function handleRequest(
  context: RequestContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const isApi = url.pathname.startsWith('/api/');
  response.setHeader('content-security-policy', appContentPolicy);
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('referrer-policy', 'no-referrer');
  try {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && isApi)) {
      throw new HttpError(405, `${method} is not supported here`);
    }
    if (!isApi) {
      // The page reads ?token= from its address, keeps it, and drops it from the address bar.
      serveAppFile(context.appDirectory, decodePath(url.pathname), response);
      return;
    }
    const given = tokenOfRequest(request, url);
    if (!tokenMatches(given, context.token)) {
      throw new HttpError(
        401,
        given === undefined
          ? 'this server needs its access token: open the URL that `codify ui` printed (it ends in ?token=…), or send `Authorization: token …`'
          : 'wrong access token: open the URL that `codify ui` printed',
      );
    }
    // Segment by segment, so a nested run's id (`eval-x/runs/…/RUN`, sent as one segment
    // with %2F) stays one part; each part is checked where it is used.
    const parts = url.pathname
      .split('/')
      .filter((part) => part !== '')
      .map((part) => decodePath(part));
    if (method === 'POST') await handleControl(context, url.pathname, parts, request, response);
    else await handleApi(context, url.pathname, parts, url, request, response);
  } catch (error) {
    sendError(response, error, isApi);
  }
}

async function handleApi(
  context: RequestContext,
  pathname: string,
  parts: readonly string[],
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  // ['api', 'runs', id?, what?]
  if (parts[1] !== 'runs' || parts.length > 4) {
    throw new HttpError(404, `no API route ${pathname}; see GET /api/runs`);
  }
  if (parts.length === 2) {
    sendJson(response, listPlainRuns(context.root).map(listEntry));
    return;
  }
  const directory = runDirectoryOf(context.root, parts[2] ?? '');
  switch (parts[3]) {
    case undefined: {
      const page = readEventLogPage(directory, url.searchParams.get('after'), detailPageBytes);
      const detail: RunDetail = { summary: listEntry(summarizeRun(directory)), ...page };
      sendJson(response, detail);
      return;
    }
    case 'summary':
      sendJson(response, listEntry(summarizeRun(directory)));
      return;
    case 'events':
      await streamRunEvents(request, response, directory, {
        pollMs: context.pollMs,
        lean: url.searchParams.get('lean') === '1',
      });
      return;
    case 'prompt': {
      const seq = Number(url.searchParams.get('seq'));
      if (!Number.isSafeInteger(seq) || seq < 1) {
        throw new HttpError(400, "prompt needs ?seq=N, the seq of the model call's llm-end event");
      }
      sendJson(response, await readLoggedPrompt(directory, seq));
      return;
    }
    case 'files':
      sendJson(response, listRunFiles(directory));
      return;
    case 'file':
      sendRunFile(response, directory, url.searchParams.get('path') ?? '');
      return;
    case 'edits':
      sendJson(response, readRunEdits(directory));
      return;
    case 'traces':
      sendJson(response, readRunTraces(directory));
      return;
    case 'feedback':
      sendJson(response, listFeedback(directory));
      return;
    default:
      throw new HttpError(
        404,
        `no API route ${pathname}; a run has /summary, /events, /prompt?seq=, /files, /file?path=, /edits, /traces and /feedback`,
      );
  }
}

/**
 * Every run under the root, newest first, except one whose events.jsonl is a symbolic link
 * (never followed, so never summarized). Run folders that are links are not listed either.
 */
function listPlainRuns(root: string): RunSummary[] {
  return listRunIds(root)
    .map((id) => join(root, id))
    .filter(hasPlainEventLog)
    .map((directory) => summarizeRun(directory))
    .sort(
      (left, right) =>
        Date.parse(right.startedAt) - Date.parse(left.startedAt) || right.id.localeCompare(left.id),
    );
}

function listEntry(summary: RunSummary): RunListEntry {
  const entry: Partial<RunSummary> = { ...summary };
  delete entry.dir;
  const outcome = runOutcome(summary.dir);
  const waiting = summary.status === 'running' ? unansweredRequests(summary.dir) : [];
  return {
    ...(entry as Omit<RunSummary, 'dir'>),
    ...(outcome === undefined ? {} : { outcome }),
    ...(waiting.length === 0 ? {} : { waiting }),
  };
}

/**
 * A file of the run, as plain text (or an image). Files in a run were written by a model and
 * its code: they must never run as a page of this origin, hence the sandbox policy.
 */
function sendRunFile(response: ServerResponse, directory: string, path: string): void {
  const bytes = readRunFile(directory, path);
  response.writeHead(200, {
    'content-type': imageTypes[extname(path).toLowerCase()] ?? 'text/plain; charset=utf-8',
    'content-security-policy': runFileContentPolicy,
    'cache-control': 'no-cache',
  });
  response.end(bytes);
}

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    throw new HttpError(400, `the path ${pathname} is not validly percent-encoded`);
  }
}

function sendJson(response: ServerResponse, value: unknown): void {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
  });
  response.end(JSON.stringify(value));
}

function sendError(response: ServerResponse, error: unknown, isApi: boolean): void {
  const status = error instanceof HttpError ? error.status : 500;
  const message = error instanceof Error ? error.message : String(error);
  if (response.headersSent) {
    response.end();
    return;
  }
  if (isApi) {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ error: message }));
  } else {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`${message}\n`);
  }
}
