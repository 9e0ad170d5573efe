import { useMemo, useRef } from 'react';
import type { CodifyEvent } from '../../src/runs/events.js';
import { StepModel, type RunStep } from './model/step-model.js';

/**
 * The steps of a run whose events keep arriving: only the events after the last ones seen are
 * applied. use-run-events only ever appends, so the earlier events are the same objects; any
 * other change (another run) starts the model again.
 */
export function useRunSteps(events: readonly CodifyEvent[]): readonly RunStep[] {
  const state = useRef<{ model: StepModel; last: CodifyEvent | undefined }>({
    model: new StepModel(),
    last: undefined,
  });
  return useMemo(() => {
    let { model } = state.current;
    const applied = model.applied;
    if (events.length < applied || (applied > 0 && events[applied - 1] !== state.current.last)) {
      model = new StepModel();
    }
    for (let index = model.applied; index < events.length; index += 1) {
      const event = events[index];
      if (event !== undefined) model.apply(event);
    }
    state.current = { model, last: events.at(-1) };
    return model.steps;
  }, [events]);
}
