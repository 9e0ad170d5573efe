import type { FeedbackAnswer } from '../runs/feedback.js';
import {
  answerFeedback as answerInFolder,
  FeedbackAnswerError,
  listFeedback,
  unansweredRequests,
} from '../runs/feedback-answers.js';
import { HttpError } from './http-error.js';

export { listFeedback, unansweredRequests };

/** Answers a request of the run (see answerFeedback in src/runs): 400 or 409 when refused. */
export function answerFeedback(runDirectory: string, id: string, body: unknown): FeedbackAnswer {
  try {
    return answerInFolder(runDirectory, id, body);
  } catch (error) {
    if (error instanceof FeedbackAnswerError) {
      throw new HttpError(error.kind === 'invalid' ? 400 : 409, error.message);
    }
    throw error;
  }
}
