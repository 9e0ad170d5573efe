import { InputError } from '../errors/codify-error.js';
import { existsSync, linkSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { feedbackAnswerSchema, type FeedbackAnswer, type FeedbackRequest } from './feedback.js';
import { answerFile, feedbackFolder, readAnswerFile, requestFile } from './feedback-folder.js';

/** A request of the run and its answer, when it has one. */
export interface FeedbackEntry {
  request: FeedbackRequest;
  answer?: FeedbackAnswer;
}

/**
 * An answer refused: `invalid` when the answer or the request id is malformed (the caller's
 * mistake), `conflict` when the run has not asked it or it is answered already.
 */
export class FeedbackAnswerError extends InputError {
  constructor(
    readonly kind: 'invalid' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'FeedbackAnswerError';
  }
}

/** Request ids are file names the pipelines choose, e.g. `step-3`, `problem-analysis`. */
const requestIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const requestSuffix = '.request.json';

/** Every request in the run folder, oldest first, each with its answer when there is one. */
export function listFeedback(runDirectory: string): FeedbackEntry[] {
  const folder = feedbackFolder(runDirectory);
  if (!existsSync(folder)) return [];
  const entries: { entry: FeedbackEntry; time: number }[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.endsWith(requestSuffix)) continue;
    const id = name.slice(0, -requestSuffix.length);
    const request = readRequest(runDirectory, id);
    if (request === undefined) continue;
    const answer = existsSync(answerFile(runDirectory, id))
      ? readAnswerFile(answerFile(runDirectory, id))
      : undefined;
    entries.push({
      entry: { request, ...(answer === undefined || typeof answer === 'string' ? {} : { answer }) },
      time: statSync(requestFile(runDirectory, id)).mtimeMs,
    });
  }
  return entries.sort((a, b) => a.time - b.time).map(({ entry }) => entry);
}

/** The requests of the run with no answer yet, by id (cheap: one listing of the folder). */
export function unansweredRequests(runDirectory: string): string[] {
  const folder = feedbackFolder(runDirectory);
  if (!existsSync(folder)) return [];
  const names = new Set(readdirSync(folder));
  return [...names]
    .filter((name) => name.endsWith(requestSuffix))
    .map((name) => name.slice(0, -requestSuffix.length))
    .filter((id) => !names.has(`${id}.answer.json`))
    .sort();
}

function readRequest(runDirectory: string, id: string): FeedbackRequest | undefined {
  try {
    const parsed = JSON.parse(readFileSync(requestFile(runDirectory, id), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'kind' in parsed && 'title' in parsed
      ? (parsed as FeedbackRequest)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Answers a request of the run the way any program may (see feedback-folder.ts), for the web
 * app and MCP clients alike: the answer
 * is checked against the schema and the request, written whole beside the answer file and
 * linked into place, so the run never reads half a file and a second answer never replaces
 * the first (the link fails when the answer exists).
 */
export function answerFeedback(runDirectory: string, id: string, body: unknown): FeedbackAnswer {
  if (!requestIdPattern.test(id) || id.includes('..')) {
    throw new FeedbackAnswerError(
      'invalid',
      `"${id}" is not a request id (ids are names such as step-3)`,
    );
  }
  const request = readRequest(runDirectory, id);
  if (request === undefined) {
    throw new FeedbackAnswerError(
      'conflict',
      `the run has not asked "${id}"; there is nothing to answer`,
    );
  }
  const target = answerFile(runDirectory, id);
  if (existsSync(target)) throw answeredAlready(id);
  const parsed = feedbackAnswerSchema.safeParse(body);
  if (!parsed.success) {
    throw new FeedbackAnswerError(
      'invalid',
      `not an answer: ${parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}; send {"decision": "approve" | "comment" | "stop" | …} (see the README)`,
    );
  }
  assertFits(request, parsed.data);
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(parsed.data, null, 2)}\n`);
  try {
    linkSync(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw answeredAlready(id);
    throw error;
  } finally {
    unlinkSync(temporary);
  }
  return parsed.data;
}

const answeredAlready = (id: string) =>
  new FeedbackAnswerError('conflict', `"${id}" is answered already; the first answer stands`);

/** Every request takes approve, comment and stop; the rest must be the request's own kind. */
function assertFits(request: FeedbackRequest, answer: FeedbackAnswer): void {
  const general = ['approve', 'comment', 'stop'];
  if (!general.includes(answer.decision) && answer.decision !== request.kind) {
    throw new FeedbackAnswerError(
      'invalid',
      `"${request.id}" asks to ${request.kind}; answer it with ${[...new Set([request.kind, ...general])].join(', ')}`,
    );
  }
  const questions = request.questions ?? [];
  if (answer.decision === 'answer' && questions.length > 0) {
    if (answer.answers.length !== questions.length) {
      throw new FeedbackAnswerError(
        'invalid',
        `"${request.id}" asks ${questions.length} question(s); send one answer for each, in order (got ${answer.answers.length})`,
      );
    }
  }
  if (answer.decision === 'pick') {
    const known = new Set((request.options ?? []).map((option) => option.id));
    const unknown = answer.picked.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new FeedbackAnswerError(
        'invalid',
        `no option ${unknown.join(', ')}; pick among ${[...known].join(', ')}`,
      );
    }
  }
}
