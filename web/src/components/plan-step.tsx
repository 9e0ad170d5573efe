import type { PlanStep } from '../../../src/explore/schemas.js';

/**
 * One step of an idea's experiment plan. With `--code` the model says whether the prototype
 * can run it; a step it cannot run is marked, with the reason, as the experiment left it out.
 */
export function PlanStepItem({ step }: { step: PlanStep }) {
  if (typeof step === 'string') return <li>{step}</li>;
  return (
    <li>
      <span className={step.runsOnPrototype ? undefined : 'plan-step-not-run'}>{step.step}</span>
      <div className="muted">
        {step.runsOnPrototype ? 'runs on the prototype' : 'not run on the prototype'}: {step.reason}
      </div>
    </li>
  );
}
