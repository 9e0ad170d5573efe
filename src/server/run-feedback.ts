import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FeedbackAnswer } from '../runs/feedback.js';
import {
  answerFeedback as answerInFolder,
  FeedbackAnswerError,
  listFeedback as listInFolder,
  unansweredRequests as unansweredInFolder,
  type FeedbackEntry,
} from '../runs/feedback-answers.js';
import { HttpError } from './http-error.js';

/** Every request of the run with its answer (see listFeedback in src/runs); 403 for links. */
export function listFeedback(runDirectory: string): FeedbackEntry[] {
  assertNoLinks(runDirectory);
  return listInFolder(runDirectory);
}

/** The unanswered requests, for the runs list; none where the folder holds a link. */
export function unansweredRequests(runDirectory: string): string[] {
  try {
    assertNoLinks(runDirectory);
  } catch {
    return [];
  }
  return unansweredInFolder(runDirectory);
}

/** Answers a request of the run (see answerFeedback in src/runs): 400 or 409 when refused. */
export function answerFeedback(runDirectory: string, id: string, body: unknown): FeedbackAnswer {
  // The answer is written into the folder: never through a link to somewhere else.
  assertNoLinks(runDirectory);
  try {
    return answerInFolder(runDirectory, id, body);
  } catch (error) {
    if (error instanceof FeedbackAnswerError) {
      throw new HttpError(error.kind === 'invalid' ? 400 : 409, error.message);
    }
    throw error;
  }
}

/**
 * The feedback folder and what is in it must be plain: the server reads requests from it and
 * writes answers into it, and follows no symbolic link in a run folder.
 */
function assertNoLinks(runDirectory: string): void {
  const folder = join(runDirectory, 'feedback');
  let isLink: boolean;
  try {
    isLink = lstatSync(folder).isSymbolicLink();
  } catch {
    return;
  }
  const linked =
    isLink || readdirSync(folder, { withFileTypes: true }).some((entry) => entry.isSymbolicLink());
  if (linked) {
    throw new HttpError(
      403,
      "the run's feedback folder holds a symbolic link, which the server does not follow",
    );
  }
}
