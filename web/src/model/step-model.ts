import type { CodifyEvent, EventOf } from '../../../src/runs/events.js';

/** One step of an implement run, gathered from its events. */
export interface RunStep {
  step: number;
  /** The planner's answer fields (Reflection, Research Plan and Status, Thought, …), last valid. */
  fields: Record<string, string>;
  /** Answers the planner gave that failed the format check, with the reason. */
  invalidAnswers: { level: number; error: string }[];
  action?: string;
  input?: unknown;
  result?: EventOf<'action-end'>;
  executions: EventOf<'execution-end'>[];
  refusals: EventOf<'guard-refusal'>[];
  feedback: EventOf<'feedback-given'>[];
  /** callIds of the model calls made during the step. */
  callIds: number[];
  startedAt: string;
  ended: boolean;
  /**
   * How the run ended while this step was unfinished (`stopped`, `failed`, …; `killed` when a
   * later process took the run over without an end): the step is no longer in progress.
   */
  cutShort?: string;
}

/**
 * The steps of a run, built one event at a time: each event costs the work of that event, not
 * of the whole log, so a page that receives a 20,000-event log in batches does not go over it
 * again for every batch. A step an event changes is replaced by a new object (its arrays
 * copied on write), and the others are kept as they were, so a view can skip redrawing every
 * step whose object did not change. A step redone after a resume replaces the earlier attempt.
 */
export class StepModel {
  /** In step order; `steps` hands out a copy only when something changed. */
  private ordered: RunStep[] = [];
  private readonly indexOfStep = new Map<number, number>();
  private current: number | undefined;
  private changed = true;
  private snapshot: readonly RunStep[] = [];
  /** Events applied so far, so a caller can hand over only the ones after. */
  applied = 0;

  apply(event: CodifyEvent): void {
    this.applied += 1;
    if (event.type === 'step-start') {
      this.start(event.step, event.time);
      return;
    }
    if (event.type === 'run-start' || event.type === 'run-end') {
      const cutShort = event.type === 'run-start' ? 'killed' : event.status;
      if (this.current !== undefined) {
        this.replace(this.current, (step) => (step.ended ? step : { ...step, cutShort }));
      }
      this.current = undefined;
      return;
    }
    if (this.current === undefined) return;
    const update = updateFor(event);
    if (update !== undefined) this.replace(this.current, update);
  }

  applyAll(events: readonly CodifyEvent[]): void {
    for (const event of events) this.apply(event);
  }

  /** The steps in order; the same array until an event changes one. */
  get steps(): readonly RunStep[] {
    if (this.changed) {
      this.snapshot = this.ordered.slice();
      this.changed = false;
    }
    return this.snapshot;
  }

  private start(step: number, time: string): void {
    const fresh: RunStep = {
      step,
      fields: {},
      invalidAnswers: [],
      executions: [],
      refusals: [],
      feedback: [],
      callIds: [],
      startedAt: time,
      ended: false,
    };
    const existing = this.indexOfStep.get(step);
    if (existing !== undefined) {
      this.ordered[existing] = fresh;
    } else if ((this.ordered.at(-1)?.step ?? -Infinity) < step) {
      this.indexOfStep.set(step, this.ordered.length);
      this.ordered.push(fresh);
    } else {
      // Out of order (not written by codify, but readable): insert and renumber the positions.
      this.ordered.push(fresh);
      this.ordered.sort((left, right) => left.step - right.step);
      this.ordered.forEach((entry, index) => this.indexOfStep.set(entry.step, index));
    }
    this.current = step;
    this.changed = true;
  }

  private replace(step: number, update: (previous: RunStep) => RunStep): void {
    const index = this.indexOfStep.get(step);
    const previous = index === undefined ? undefined : this.ordered[index];
    if (index === undefined || previous === undefined) return;
    this.ordered[index] = update(previous);
    this.changed = true;
  }
}

/** How one event changes the step it happened in; undefined when it does not. */
function updateFor(event: CodifyEvent): ((step: RunStep) => RunStep) | undefined {
  switch (event.type) {
    case 'planner-answer':
      return event.valid && event.fields !== undefined
        ? (step) => ({ ...step, fields: event.fields ?? {} })
        : (step) => ({
            ...step,
            invalidAnswers: [
              ...step.invalidAnswers,
              { level: event.level, error: event.error ?? 'invalid' },
            ],
          });
    case 'action-start':
      return (step) => ({ ...step, action: event.action, input: event.input });
    case 'action-end':
      return (step) => ({ ...step, result: event });
    case 'execution-end':
      return (step) => ({ ...step, executions: [...step.executions, event] });
    case 'guard-refusal':
      return (step) => ({ ...step, refusals: [...step.refusals, event] });
    case 'feedback-given':
      return (step) => ({ ...step, feedback: [...step.feedback, event] });
    case 'llm-start':
      return (step) => ({ ...step, callIds: [...step.callIds, event.callId] });
    case 'step-end':
      return (step) => ({ ...step, ended: true, action: step.action ?? event.action });
    default:
      return undefined;
  }
}
