import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnsweredElsewhere,
  type FeedbackAnswer,
  type FeedbackChannel,
  type FeedbackRequest,
} from '../../src/runs/feedback.js';
import {
  answerFile,
  recordedFeedback,
  requestFile,
  runFolderOnly,
} from '../../src/runs/feedback-folder.js';

const request: FeedbackRequest = {
  id: 'step-1',
  kind: 'approve',
  title: 'step 1: List Files',
  body: 'Observation: a.py',
};

/** Writes an answer the way the web app does: whole, then renamed in. */
function answerInFolder(runDir: string, answer: FeedbackAnswer): void {
  const temporary = `${answerFile(runDir, request.id)}.tmp`;
  writeFileSync(temporary, JSON.stringify(answer));
  renameSync(temporary, answerFile(runDir, request.id));
}

/** A terminal that waits until withdrawn, remembering why. */
function waitingTerminal(): FeedbackChannel & { withdrawn: unknown[] } {
  const withdrawn: unknown[] = [];
  return {
    withdrawn,
    ask: (_request, signal) =>
      new Promise<FeedbackAnswer>((_resolve, reject) => {
        signal?.addEventListener('abort', () => {
          withdrawn.push(signal.reason);
          reject(new Error('withdrawn'));
        });
      }),
  };
}

const waitFor = async (check: () => boolean) => {
  for (let tries = 0; tries < 200 && !check(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('feedback: the terminal and the run folder both live, the first answer wins', () => {
  it('takes an answer written in the folder and withdraws the terminal prompt', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'feedback-race-'));
    const terminal = waitingTerminal();
    const answered = recordedFeedback(runDir, terminal, { pollMs: 20 }).ask(request);
    await waitFor(() => existsSync(requestFile(runDir, request.id)));
    answerInFolder(runDir, { decision: 'comment', comment: 'try a smaller learning rate' });
    await expect(answered).resolves.toEqual({
      decision: 'comment',
      comment: 'try a smaller learning rate',
    });
    expect(terminal.withdrawn).toHaveLength(1);
    const reason = terminal.withdrawn[0];
    expect(reason).toBeInstanceOf(AnsweredElsewhere);
    expect(reason instanceof AnsweredElsewhere ? reason.where : '').toContain('browser');
  });

  it('takes the terminal answer first and stops watching the folder', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'feedback-race-'));
    let folderWatchStopped = false;
    const terminal: FeedbackChannel = {
      ask: async (_request, signal) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        signal?.addEventListener('abort', () => (folderWatchStopped = true));
        return { decision: 'stop', comment: 'enough' };
      },
    };
    await expect(recordedFeedback(runDir, terminal, { pollMs: 20 }).ask(request)).resolves.toEqual({
      decision: 'stop',
      comment: 'enough',
    });
    // The winner is never withdrawn; its answer is what the folder keeps.
    expect(folderWatchStopped).toBe(false);
    expect(JSON.parse(readFileSync(answerFile(runDir, request.id), 'utf8'))).toEqual({
      decision: 'stop',
      comment: 'enough',
    });
  });

  it('answers a run with no terminal from the folder alone, setting a bad answer aside', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'feedback-race-'));
    const answered = recordedFeedback(runDir, runFolderOnly, { pollMs: 20 }).ask(request);
    await waitFor(() => existsSync(requestFile(runDir, request.id)));
    answerInFolder(runDir, { decision: 'comment', comment: '' } as unknown as FeedbackAnswer);
    await waitFor(() => existsSync(`${answerFile(runDir, request.id)}.problem.txt`));
    expect(readFileSync(`${answerFile(runDir, request.id)}.problem.txt`, 'utf8')).toContain(
      'comment',
    );
    answerInFolder(runDir, { decision: 'approve' });
    await expect(answered).resolves.toEqual({ decision: 'approve' });
  });

  it('passes on a failure of the inner channel', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'feedback-race-'));
    const broken: FeedbackChannel = { ask: () => Promise.reject(new Error('stdin closed')) };
    await expect(recordedFeedback(runDir, broken, { pollMs: 20 }).ask(request)).rejects.toThrow(
      'stdin closed',
    );
  });

  it('takes an answer that landed in the file just after the terminal answered: the file decides', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'feedback-race-'));
    const posted: FeedbackAnswer = { decision: 'comment', comment: 'posted a moment later' };
    // The terminal answers, and a POST lands before the run writes the terminal's answer.
    const terminal: FeedbackChannel = {
      ask: () => {
        answerInFolder(runDir, posted);
        return Promise.resolve({ decision: 'approve' });
      },
    };
    const answer = await recordedFeedback(runDir, terminal, { pollMs: 1000 }).ask(request);
    expect(answer).toEqual(posted);
    expect(JSON.parse(readFileSync(answerFile(runDir, request.id), 'utf8'))).toEqual(posted);
  });
});
