import { loadPrompt } from '../../prompts/load-prompt.js';
import { exhaustedBudget } from '../budgets.js';
import { askPlanner, type CascadeResult } from '../cascade.js';
import { guardNote } from '../guards/action-guards.js';
import { requestPlanningExpertHelp } from '../actions/request-planning-expert-help.js';
import { budgetLines } from '../budget-notes.js';
import { plannerPrompt } from '../planner-prompt.js';
import { summarizeFolded } from './remember-phase.js';
import type { AgentSession } from './agent-session.js';

/**
 * Starts a step: a budget that ran out forces the final answer from now on, then step-start.
 * Returns the step number and whether only Final Answer is accepted.
 */
export function beginStep(session: AgentSession): { step: number; forced: boolean } {
  const { state, run } = session;
  session.tick();
  if (state.forcedFinal === null) {
    const budget = exhaustedBudget(session.options, session.usage);
    if (budget !== undefined) {
      state.forcedFinal = budget.message;
      run.emit({ type: 'budget-exhausted', budget: budget.budget, message: budget.message });
    }
  }
  const step = state.step + 1;
  run.emit({ type: 'step-start', step });
  return { step, forced: state.forcedFinal !== null };
}

/** Phase 1: the planner cascade answers, from memory, notes and the last comment. */
export async function askThePlanner(
  session: AgentSession,
  step: number,
  forced: boolean,
): Promise<CascadeResult> {
  const { state, options, context, expertHelp, finalAction } = session;
  const offersExpertHelp = context.actions.some(
    (action) => action.name === requestPlanningExpertHelp.name,
  );
  const budgets = budgetLines({
    step,
    options,
    usage: session.usage,
    ...(offersExpertHelp ? { expertHelpLeft: expertHelp.remaining } : {}),
    lastExecution: session.seen.last,
    ...(finalAction === undefined ? {} : { finalAction: finalAction.name }),
  });
  const notes = [
    guardNote(state.guard, step, options),
    forced ? loadPrompt('agent-budget-reached', { budget: state.forcedFinal ?? '' }).trim() : '',
  ];
  const allowed = forced && finalAction !== undefined ? [finalAction] : context.actions;
  await summarizeFolded(session, step);
  return askPlanner({
    models: session.models,
    ...plannerPrompt({
      step,
      problem: context.problem,
      ...(step === 1 && context.firstStep !== undefined ? { firstStep: context.firstStep } : {}),
      actions: context.actions,
      researchLog: state.researchLog,
      recentSteps: state.recentSteps,
      shortTermSteps: options.shortTermSteps,
      budgets,
      notes,
      comment: state.pendingComment,
      ...(options.questions ? { questions: true } : {}),
    }),
    actions: allowed,
    attemptsPerLevel: options.attemptsPerLevel,
    step,
    emit: (body) => session.run.emit(body),
    signal: context.signal,
  });
}
