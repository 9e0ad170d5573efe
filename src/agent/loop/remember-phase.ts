import type { StepRecord } from '../checkpoint.js';
import { entryStep, lastFoldedStep } from '../planner-memory.js';
import { isSummarizedObservation, summarizeStep, unsummarizedEntry } from '../research-log.js';
import type { AgentSession } from './agent-session.js';

/**
 * Phase 4: memory. The step goes into the research log (long-term, with the comment the
 * planner was given) and is kept in full among the recent steps (short-term).
 *
 * Its log entry starts as the plain one built from the step itself; the summarizer writes
 * the real entry only when the step is folded out of the steps shown in full (see
 * `summarizeFolded`), since until then the planner reads the step whole and no planner
 * prompt holds its entry. So a short run (or an explore experiment of five steps) makes no
 * summary at all, and the step that ends the run, or one whose observation the summarizer
 * already condensed, never gets one.
 */
export function remember(
  session: AgentSession,
  record: StepRecord,
  step: { thought: string; final: boolean },
): void {
  const { state, options } = session;
  const comment = state.pendingComment;
  state.pendingComment = null;
  const toSummarize = {
    step: record.step,
    thought: step.thought,
    action: record.action,
    input: record.input,
    observation: record.observation,
    comment,
  };
  state.researchLog.push(unsummarizedEntry(toSummarize));
  if (!step.final && !isSummarizedObservation(record.observation)) {
    state.unsummarized = [...(state.unsummarized ?? []), toSummarize];
  }
  // up to twice the short-term steps are shown in full before they are folded (see lastFoldedStep)
  state.recentSteps = [...state.recentSteps, record].slice(
    -Math.max(0, 2 * options.shortTermSteps),
  );
  state.step = record.step;
  session.usage.steps = record.step;
  session.tick();
}

/**
 * Before the planner is asked for `step`: the summaries of the steps that its prompt shows
 * folded into the research log and that have none yet, written in their places in the log.
 */
export async function summarizeFolded(session: AgentSession, step: number): Promise<void> {
  const { state, options } = session;
  const folded = lastFoldedStep(step - 1, options.shortTermSteps);
  const pending = state.unsummarized ?? [];
  for (const due of pending.filter((left) => left.step <= folded)) {
    const summary = await summarizeStep(session.models, due, options.observationCharLimit);
    const index = state.researchLog.findIndex((entry) => entryStep(entry) === due.step);
    if (index === -1) state.researchLog.push(summary);
    else state.researchLog[index] = summary;
  }
  state.unsummarized = pending.filter((left) => left.step > folded);
}
