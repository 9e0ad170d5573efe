import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  answerFeedback,
  listFeedback,
  unansweredRequests,
} from '../../src/runs/feedback-answers.js';
import { feedbackFolder, requestFile } from '../../src/runs/feedback-folder.js';
import type { FeedbackRequest } from '../../src/runs/feedback.js';

const questions: FeedbackRequest = {
  id: 'step-2',
  kind: 'answer',
  title: 'step 2: Execute Script',
  body: 'The planner asks.',
  questions: ['Which split is the test set?', 'May I use a GPU?'],
};

function runAsking(request: FeedbackRequest): string {
  const runDir = mkdtempSync(join(tmpdir(), 'feedback-answers-'));
  mkdirSync(feedbackFolder(runDir), { recursive: true });
  writeFileSync(requestFile(runDir, request.id), JSON.stringify(request));
  return runDir;
}

describe('answering a request in the run folder (web app and MCP)', () => {
  it('takes one answer per question, in order, and only the first answer', () => {
    const runDir = runAsking(questions);
    expect(unansweredRequests(runDir)).toEqual(['step-2']);
    expect(() =>
      answerFeedback(runDir, 'step-2', { decision: 'answer', answers: ['the last 20%'] }),
    ).toThrow('"step-2" asks 2 question(s); send one answer for each, in order (got 1)');
    const answer = { decision: 'answer', answers: ['the last 20%', 'no'] };
    expect(answerFeedback(runDir, 'step-2', answer)).toEqual(answer);
    expect(() => answerFeedback(runDir, 'step-2', { decision: 'approve' })).toThrow(
      'answered already',
    );
    expect(unansweredRequests(runDir)).toEqual([]);
    expect(listFeedback(runDir)).toEqual([{ request: questions, answer }]);
  });

  it('refuses ids that are not request names, and requests the run never made', () => {
    const runDir = runAsking(questions);
    for (const id of ['../step-2', 'step-2/../../x', '.hidden', '']) {
      expect(() => answerFeedback(runDir, id, { decision: 'approve' })).toThrow(
        'is not a request id',
      );
    }
    expect(() => answerFeedback(runDir, 'step-9', { decision: 'approve' })).toThrow(
      'the run has not asked "step-9"',
    );
  });
});
