import { feedbackText, type FeedbackRequest } from '../../runs/feedback.js';
import { recordedFeedback } from '../../runs/feedback-folder.js';
import type { Feedback, StepSummary } from '../strategies/strategy.js';
import type { AgentSession } from './agent-session.js';

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const clip = (text: string, limit: number) =>
  text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;

/** The step as a feedback request: approve it, or answer the planner's questions. */
export function stepRequest(summary: StepSummary): FeedbackRequest {
  const questions = summary.questions ?? [];
  return {
    id: `step-${summary.step}`,
    kind: questions.length > 0 ? 'answer' : 'approve',
    title: `step ${summary.step}: ${summary.action}`,
    body: [
      summary.thought === '' ? '' : `Thought: ${clip(summary.thought, 600)}`,
      `Input: ${clip(JSON.stringify(summary.input), 600)}`,
      `Observation: ${clip(summary.observation, 1500)}`,
    ]
      .filter((line) => line !== '')
      .join('\n'),
    ...(questions.length > 0 ? { questions } : {}),
  };
}

/** Asks through the channel (recorded in the run folder) and reads the answer as the agent's feedback. */
async function askChannel(session: AgentSession, summary: StepSummary): Promise<Feedback> {
  const channel = session.context.feedback;
  if (channel === undefined) {
    const ask = session.context.ask;
    return ask === undefined ? { decision: 'approve' } : ask(summary);
  }
  const request = stepRequest(summary);
  session.run.emit({
    type: 'feedback-request',
    id: request.id,
    kind: request.kind,
    title: request.title,
    step: summary.step,
    ...(request.questions === undefined ? {} : { questions: request.questions }),
    waiting: true,
  });
  const answer = await recordedFeedback(session.run.dir, channel).ask(
    request,
    session.context.signal,
  );
  const text = feedbackText(request, answer);
  if (answer.decision === 'stop')
    return { decision: 'stop', ...(text === undefined ? {} : { comment: text }) };
  return text === undefined ? { decision: 'approve' } : { decision: 'comment', comment: text };
}

/**
 * The per-step gate of interactive mode: the person approves, comments, answers the
 * planner's questions (the text reaches the next planner prompt and the research log) or
 * stops the run. Not interactive, the questions are recorded and the run goes on.
 */
export async function askForFeedback(session: AgentSession, summary: StepSummary): Promise<void> {
  const { state, context, run } = session;
  if (state.finished !== null) return;
  const asks = context.feedback !== undefined || context.ask !== undefined;
  if (!session.options.interactive || !asks) {
    const questions = summary.questions ?? [];
    if (questions.length > 0) {
      run.emit({
        type: 'feedback-request',
        id: `step-${summary.step}`,
        kind: 'answer',
        title: `step ${summary.step}: ${summary.action}`,
        step: summary.step,
        questions,
        waiting: false,
      });
    }
    return;
  }
  let feedback;
  try {
    feedback = await askChannel(session, summary);
  } catch (error) {
    if (context.signal?.aborted === true) {
      // Ctrl-C or SIGTERM while the question waited: the step itself is complete.
      state.finished = {
        status: 'stopped',
        reason: `interrupted while waiting for feedback on step ${summary.step}`,
      };
      return;
    }
    feedback = { decision: 'stop' as const, comment: `feedback failed: ${message(error)}` };
  }
  run.emit({
    type: 'feedback-given',
    step: summary.step,
    decision: feedback.decision,
    comment: feedback.comment,
  });
  if (feedback.decision === 'stop') {
    state.finished = { status: 'stopped', reason: 'stopped by the person supervising the run' };
  } else if (
    feedback.decision === 'comment' &&
    feedback.comment !== undefined &&
    feedback.comment.trim() !== ''
  ) {
    state.pendingComment = feedback.comment.trim();
    state.researchLog.push(`## Human comment after step ${summary.step}\n${state.pendingComment}`);
  }
}
