import type { StepRecord } from '../checkpoint.js';
import { act, checkTheGuards, type ActOutcome } from '../loop/act-phase.js';
import { openSession } from '../loop/agent-session.js';
import { checkpoint } from '../loop/checkpoint-phase.js';
import { decideEnd } from '../loop/end-phase.js';
import { askForFeedback } from '../loop/feedback-phase.js';
import { askThePlanner, beginStep } from '../loop/plan-phase.js';
import { remember } from '../loop/remember-phase.js';
import { observationForPlanner } from '../research-log.js';
import type { StrategyContext, StrategyOutcome } from './strategy.js';

export { finalAnswerName } from '../loop/agent-session.js';

/**
 * Interrupted mid-step (Ctrl-C, SIGTERM): the step is neither remembered nor checkpointed, so
 * `codify resume` restores the files of the last whole step and does this one again.
 */
function interrupted(session: ReturnType<typeof openSession>, step: number): StrategyOutcome {
  return session.outcome(
    'stopped',
    `interrupted during step ${step}; \`codify resume\` continues after step ${step - 1}`,
  );
}

/**
 * The research agent: each step the planner cascade answers, the guards check the action,
 * the action runs, memory is updated and a checkpoint closes the step (src/agent/loop/, one
 * file per phase). Nothing throws out; the run always ends with a status and a reason.
 */
export async function runAgentStrategy(context: StrategyContext): Promise<StrategyOutcome> {
  const session = openSession(context);
  const { state } = session;
  if (state.finished !== null) return session.outcome(state.finished.status, state.finished.reason);

  for (;;) {
    const { step, forced } = beginStep(session);
    const answer = await askThePlanner(session, step, forced);

    let record: StepRecord;
    let outcome: ActOutcome;
    let thought = '';
    if (!answer.ok) {
      if (context.signal?.aborted === true) return interrupted(session, step);
      state.failedSteps += 1;
      const observation = `No valid answer after ${answer.attempts} attempts on every planner level. The last problems: ${answer.reasons.slice(-3).join(' | ')}`;
      outcome = { observation, display: observation, final: false };
      record = { step, answer: '(no valid answer)', action: 'none', input: null, observation };
    } else {
      state.failedSteps = 0;
      const { action, input, fields } = answer.response;
      thought = fields.Thought;
      outcome =
        checkTheGuards(session, step, forced, action, input) ??
        (await act(session, step, action, input));
      if (context.signal?.aborted === true) return interrupted(session, step);
      record = {
        step,
        answer: answer.text.trim(),
        action: action.name,
        input,
        observation: await observationForPlanner(
          session.models,
          action.name,
          outcome.observation,
          session.options.observationCharLimit,
          step,
        ),
      };
    }

    remember(session, record, { thought, final: outcome.final });
    state.finished = decideEnd(session, { forced, answered: answer.ok, final: outcome.final });
    await askForFeedback(session, {
      step,
      action: record.action,
      input: record.input,
      thought: answer.ok ? answer.response.fields.Thought : '',
      observation: record.observation,
      display: outcome.display,
      questions: answer.ok ? answer.response.questions : [],
    });
    await checkpoint(session, step, record.action);
    if (state.finished !== null)
      return session.outcome(state.finished.status, state.finished.reason);
  }
}
