import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from './request-context.js';
import { HttpError } from './http-error.js';
import { launchArguments } from './run-launch-request.js';
import { assertResumable, launchCodify, resumeCodify, stopRun } from './run-control.js';
import { answerFeedback } from './run-feedback.js';
import { runDirectoryOf } from './run-paths.js';

/** A start request is a few fields; anything longer is not one. */
const bodyLimitBytes = 16 * 1024;
/** An answer may carry an edited draft (a problem analysis, a plan). */
const answerLimitBytes = 256 * 1024;

/** POST answer: the run the browser should show next. */
export interface RunControlAnswer {
  runId: string;
}

/**
 * Steering: POST /api/runs starts a run, /api/runs/:id/stop stops one, /api/runs/:id/resume
 * continues one, /api/runs/:id/feedback/:request answers what an interactive run asks. On top of the token, a POST must be JSON (a cross-site form cannot send
 * that without a preflight this server never grants) and come from this server's own page.
 */
export async function handleControl(
  context: RequestContext,
  pathname: string,
  parts: readonly string[],
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${request.headers.host ?? ''}`) {
    throw new HttpError(403, `requests from ${origin} may not steer runs`);
  }
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'send the request as application/json');
  }
  const isAnswer = parts.length === 5 && parts[1] === 'runs' && parts[3] === 'feedback';
  const body = await readJsonBody(request, isAnswer ? answerLimitBytes : bodyLimitBytes);
  const options = { root: context.root, workingDirectory: context.workingDirectory };
  let answer: RunControlAnswer;
  if (parts.length === 2 && parts[1] === 'runs') {
    answer = {
      runId: await launchCodify(launchArguments(body, context.workingDirectory), options),
    };
  } else if (parts.length === 4 && parts[1] === 'runs' && parts[3] === 'stop') {
    const id = parts[2] ?? '';
    stopRun(runDirectoryOf(context.root, id));
    answer = { runId: id };
  } else if (parts.length === 4 && parts[1] === 'runs' && parts[3] === 'resume') {
    const id = parts[2] ?? '';
    assertResumable(runDirectoryOf(context.root, id));
    if (id.includes('/')) {
      throw new HttpError(409, 'this run belongs to an evaluation: `codify eval` continues it');
    }
    answer = { runId: await resumeCodify(id, options) };
  } else if (isAnswer) {
    const id = parts[2] ?? '';
    answerFeedback(runDirectoryOf(context.root, id), parts[4] ?? '', body);
    answer = { runId: id };
  } else {
    throw new HttpError(
      404,
      `no POST route ${pathname}; POST /api/runs starts a run, /api/runs/ID/stop, /api/runs/ID/resume and /api/runs/ID/feedback/REQUEST steer one`,
    );
  }
  response.writeHead(202, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(answer));
}

async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limitBytes) {
      throw new HttpError(413, `the request body is over ${limitBytes / 1024} KB`);
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
}
