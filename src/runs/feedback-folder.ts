import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { abortReason } from '../llm/retry-policy.js';
import { waitForCompleteFile } from '../llm/wait-for-file.js';
import {
  AnsweredElsewhere,
  feedbackAnswerSchema,
  type FeedbackAnswer,
  type FeedbackChannel,
  type FeedbackRequest,
} from './feedback.js';

/** Where a run's feedback lives: `<run>/feedback/<id>.request.json` and `<id>.answer.json`. */
export const feedbackFolder = (runDir: string) => join(runDir, 'feedback');
export const requestFile = (runDir: string, id: string) =>
  join(feedbackFolder(runDir), `${id}.request.json`);
export const answerFile = (runDir: string, id: string) =>
  join(feedbackFolder(runDir), `${id}.answer.json`);

const writeJson = (path: string, value: unknown) =>
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Reads an answer file; a string says what is wrong with it. */
export function readAnswerFile(path: string): FeedbackAnswer | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return `not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const result = feedbackAnswerSchema.safeParse(parsed);
  return result.success
    ? result.data
    : result.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
}

/** Where an answer that came through the run folder is said to come from. */
const fromFolder = 'from the browser (the run folder)';

/**
 * Keeps every request and its answer in the run folder, whoever answers, so the run holds
 * what was asked and decided. While `inner` asks (the terminal), the folder is live too: the
 * first answer wins, and the other side is withdrawn (the inner channel through its signal),
 * so a run asked in a terminal can be answered from the web app and the other way round.
 */
export function recordedFeedback(
  runDir: string,
  inner: FeedbackChannel,
  options: { pollMs?: number } = {},
): FeedbackChannel {
  return {
    async ask(request, signal) {
      mkdirSync(feedbackFolder(runDir), { recursive: true });
      writeJson(requestFile(runDir, request.id), request);
      // An answer already there (a resumed run, or one written ahead) is used, if it fits.
      const existing = existsSync(answerFile(runDir, request.id))
        ? readAnswerFile(answerFile(runDir, request.id))
        : undefined;
      if (existing !== undefined && typeof existing !== 'string') return existing;
      const first = await firstAnswer(runDir, request, inner, { ...options, signal });
      return settle(runDir, request.id, first);
    },
  };
}

/**
 * Writes the answer the run goes on with, unless an answer file landed in the meantime (a
 * POST a moment after the terminal answered): the file is the arbiter, so the run takes the
 * answer it holds and what the web app was told (accepted) stays true.
 */
function settle(runDir: string, id: string, answer: FeedbackAnswer): FeedbackAnswer {
  const target = answerFile(runDir, id);
  const temporary = `${target}.${process.pid}.tmp`;
  writeJson(temporary, answer);
  try {
    linkSync(temporary, target);
    return answer;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const landed = readAnswerFile(target);
    if (typeof landed !== 'string') return landed;
    // What is there is no answer (it is waited for whole elsewhere): ours replaces it.
    renameSync(temporary, target);
    return answer;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Races the inner channel against the answer file; the loser is withdrawn, never left asking. */
async function firstAnswer(
  runDir: string,
  request: FeedbackRequest,
  inner: FeedbackChannel,
  options: { pollMs?: number; signal?: AbortSignal | undefined },
): Promise<FeedbackAnswer> {
  const folderStop = new AbortController();
  const innerStop = new AbortController();
  const stopBoth = () => {
    folderStop.abort(options.signal?.reason);
    innerStop.abort(options.signal?.reason);
  };
  options.signal?.addEventListener('abort', stopBoth, { once: true });
  const folder = waitForAnswer(runDir, request.id, {
    pollMs: options.pollMs ?? 500,
    signal: folderStop.signal,
  }).then((answer) => ({ answer, folder: true }));
  const own = inner.ask(request, innerStop.signal).then((answer) => ({ answer, folder: false }));
  // The loser rejects once withdrawn; that is expected, not an error of the run.
  folder.catch(() => undefined);
  own.catch(() => undefined);
  try {
    const first = await Promise.race([folder, own]);
    if (first.folder) innerStop.abort(new AnsweredElsewhere(first.answer, fromFolder));
    else folderStop.abort(new AnsweredElsewhere(first.answer, 'by the inner channel'));
    return first.answer;
  } catch (error) {
    stopBoth();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', stopBoth);
  }
}

/**
 * Waits for a fitting answer file. One that does not fit is renamed aside with its problem
 * beside it, and the wait goes on for the next.
 */
async function waitForAnswer(
  runDir: string,
  id: string,
  options: { pollMs: number; timeoutMs?: number; signal?: AbortSignal },
): Promise<FeedbackAnswer> {
  const file = answerFile(runDir, id);
  for (;;) {
    await waitForCompleteFile(file, {
      pollMs: options.pollMs,
      stableMs: 200,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const answer = readAnswerFile(file);
    if (typeof answer !== 'string') return answer;
    // Moved aside with its problem beside it, so the wait sees the next answer.
    renameSync(file, `${file}.rejected-${Date.now()}`);
    writeFileSync(`${file}.problem.txt`, `${answer}\n`);
  }
}

/**
 * The folder as the channel: the request file is written and the answer file waited for,
 * so any program that can write a file (the web app, an MCP client, a person) answers. An
 * answer file that does not fit is renamed aside with the problem and waited for again.
 */
export function folderFeedback(
  runDir: string,
  options: { pollMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): FeedbackChannel {
  return {
    async ask(request: FeedbackRequest, signal?: AbortSignal) {
      mkdirSync(feedbackFolder(runDir), { recursive: true });
      writeJson(requestFile(runDir, request.id), request);
      const stop = signal ?? options.signal;
      return waitForAnswer(runDir, request.id, {
        pollMs: options.pollMs ?? 500,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(stop === undefined ? {} : { signal: stop }),
      });
    },
  };
}

/**
 * For a process with no terminal to ask in (a run started from the web app): it never
 * answers by itself, so under `recordedFeedback` the run folder alone answers. Its question
 * is withdrawn when the signal aborts.
 */
export const runFolderOnly: FeedbackChannel = {
  ask: (_request, signal) =>
    new Promise<FeedbackAnswer>((_resolve, reject) => {
      if (signal === undefined) return;
      const withdraw = () => reject(abortReason(signal));
      if (signal.aborted) withdraw();
      else signal.addEventListener('abort', withdraw, { once: true });
    }),
};
