import type { IdeaCard, PlanStep } from '../schemas.js';

/** A plan step the prototype cannot run: left out of the experiment, listed with its reason. */
export interface NotRunStep {
  step: string;
  reason: string;
}

/** A step's text, whether the model classified it or not. */
export function stepText(step: PlanStep): string {
  return typeof step === 'string' ? step : step.step;
}

/** A plain step is taken as runnable: nothing said the prototype cannot run it. */
export function runsOnPrototype(step: PlanStep): boolean {
  return typeof step === 'string' || step.runsOnPrototype;
}

/**
 * The plan split as an experiment on the prototype uses it: the steps the implement run gets,
 * and the steps it does not, each with the model's reason.
 */
export function splitPlan(card: IdeaCard): { runnable: string[]; notRun: NotRunStep[] } {
  const runnable: string[] = [];
  const notRun: NotRunStep[] = [];
  for (const step of card.experimentPlan.procedure) {
    if (runsOnPrototype(step)) runnable.push(stepText(step));
    else if (typeof step !== 'string') notRun.push({ step: step.step, reason: step.reason });
  }
  return { runnable, notRun };
}

/** A step as the ideas' Markdown shows it: its text, and a mark when the prototype cannot run it. */
export function describeStep(step: PlanStep): string {
  if (typeof step === 'string') return step;
  return step.runsOnPrototype
    ? step.step
    : `${step.step} [not runnable on the prototype: ${step.reason}]`;
}
