import type { StepRecord } from '../checkpoint.js';
import { isSummarizedObservation, summarizeStep, unsummarizedEntry } from '../research-log.js';
import type { AgentSession } from './agent-session.js';

/**
 * Phase 4: memory. The step is summarized into the research log (long-term, with the
 * comment the planner was given) and kept in full among the recent steps (short-term).
 * The step that ends the run is logged without a summary (no planner reads it again), and
 * so is one whose observation the summarizer already condensed.
 */
export async function remember(
  session: AgentSession,
  record: StepRecord,
  step: { thought: string; final: boolean },
): Promise<void> {
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
  state.researchLog.push(
    step.final || isSummarizedObservation(record.observation)
      ? unsummarizedEntry(toSummarize)
      : await summarizeStep(session.models, toSummarize, options.observationCharLimit),
  );
  // up to twice the short-term steps are shown in full before they are folded (see lastFoldedStep)
  state.recentSteps = [...state.recentSteps, record].slice(
    -Math.max(0, 2 * options.shortTermSteps),
  );
  state.step = record.step;
  session.usage.steps = record.step;
  session.tick();
}
