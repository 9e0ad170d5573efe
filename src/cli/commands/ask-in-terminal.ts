import { createInterface } from 'node:readline/promises';
import { runFolderOnly } from '../../runs/feedback-folder.js';
import {
  AnsweredElsewhere,
  type FeedbackAnswer,
  type FeedbackChannel,
  type FeedbackRequest,
} from '../../runs/feedback.js';

const stopWords = ['stop', 's', 'q', 'quit'];

async function question(prompt: string, signal: AbortSignal | undefined): Promise<string> {
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C at the prompt reaches readline as a key, not as a signal: raise it as one, so it
  // stops the run the way Ctrl-C does everywhere else (see src/cli/interrupt.ts).
  reader.on('SIGINT', () => {
    reader.close();
    process.kill(process.pid, 'SIGINT');
  });
  try {
    return (await reader.question(prompt, signal === undefined ? {} : { signal })).trim();
  } catch (error) {
    // Answered in the run folder (the web app) while this prompt waited: say so, withdraw it.
    const reason: unknown = signal?.reason;
    if (signal?.aborted === true && reason instanceof AnsweredElsewhere) {
      process.stderr.write(`\n── answered ${reason.where}: ${describe(reason.answer)}\n`);
      throw reason;
    }
    throw error;
  } finally {
    reader.close();
  }
}

/** One line for an answer given elsewhere. */
function describe(answer: FeedbackAnswer): string {
  switch (answer.decision) {
    case 'approve':
      return 'approved';
    case 'stop':
      return answer.comment === undefined ? 'stop' : `stop (${answer.comment})`;
    case 'comment':
      return `comment: ${answer.comment}`;
    case 'edit':
      return 'edited';
    case 'pick':
      return `picked ${answer.picked.join(', ')}`;
    case 'answer':
      return `answers: ${answer.answers.join(' | ')}`;
  }
}

/** Reads a line: `stop` stops, `# text` comments; otherwise the kind's own answer. */
async function answerLine(
  prompt: string,
  signal: AbortSignal | undefined,
): Promise<{ stop: true } | { comment: string } | { text: string }> {
  const line = await question(prompt, signal);
  if (stopWords.includes(line.toLowerCase())) return { stop: true };
  if (line.startsWith('#')) return { comment: line.slice(1).trim() };
  return { text: line };
}

/**
 * The terminal side of the feedback channel: shows the request, then reads the answer.
 * Every kind accepts `stop`, and a comment written after `#`; Enter approves. The run folder
 * is live at the same time (see recordedFeedback): an answer from the web app withdraws the
 * prompt and is printed here.
 */
export const terminalFeedback: FeedbackChannel = {
  async ask(request: FeedbackRequest, signal?: AbortSignal): Promise<FeedbackAnswer> {
    process.stderr.write(`\n── ${request.title}\n${request.body}\n\n`);
    const other = (line: { stop: true } | { comment: string }): FeedbackAnswer =>
      'stop' in line ? { decision: 'stop' } : { decision: 'comment', comment: line.comment };
    switch (request.kind) {
      case 'answer': {
        const answers: string[] = [];
        for (const [index, text] of (request.questions ?? []).entries()) {
          const line = await answerLine(`Q${index + 1}. ${text}\n> `, signal);
          if (!('text' in line)) return other(line);
          answers.push(line.text === '' ? '(no answer)' : line.text);
        }
        return answers.every((answer) => answer === '(no answer)')
          ? { decision: 'approve' }
          : { decision: 'answer', answers };
      }
      case 'pick': {
        for (const option of request.options ?? []) {
          process.stderr.write(`  ${option.id}: ${option.label}\n`);
        }
        const line = await answerLine(
          'Pick (ids, comma-separated; Enter for all as proposed): ',
          signal,
        );
        if (!('text' in line)) return other(line);
        const picked = line.text
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== '');
        return picked.length === 0 ? { decision: 'approve' } : { decision: 'pick', picked };
      }
      case 'edit': {
        if (request.draft !== undefined) process.stderr.write(`${request.draft}\n`);
        const line = await answerLine('Enter to keep, or the replacement text: ', signal);
        if (!('text' in line)) return other(line);
        return line.text === '' ? { decision: 'approve' } : { decision: 'edit', text: line.text };
      }
      case 'approve': {
        const line = await answerLine(
          'Enter to continue, a comment for the agent, or "stop": ',
          signal,
        );
        if (!('text' in line)) return other(line);
        return line.text === ''
          ? { decision: 'approve' }
          : { decision: 'comment', comment: line.text };
      }
    }
  },
};

/**
 * The channel for `--interactive`: the terminal when there is one; otherwise (a run started
 * by the web app, or with stdin redirected) the run folder alone answers.
 */
export function interactiveFeedback(): FeedbackChannel {
  return process.stdin.isTTY ? terminalFeedback : runFolderOnly;
}
