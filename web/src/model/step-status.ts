import type { RunStep } from './run-steps.js';

/**
 * Steps as the run's status leaves them: a run whose process died without writing its end
 * (`killed`) is not still working on its last step, so that step is cut short too.
 */
export function stepsUnderStatus(
  steps: readonly RunStep[],
  status: string | undefined,
): readonly RunStep[] {
  if (status !== 'killed') return steps;
  return steps.map((step) =>
    step.ended || step.cutShort !== undefined ? step : { ...step, cutShort: 'killed' },
  );
}
