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

/** The steps of a run in order; a step that was redone after a resume keeps its last attempt. */
export function stepsOf(events: readonly CodifyEvent[]): RunStep[] {
  const steps = new Map<number, RunStep>();
  let current: RunStep | undefined;
  for (const event of events) {
    if (event.type === 'step-start') {
      current = {
        step: event.step,
        fields: {},
        invalidAnswers: [],
        executions: [],
        refusals: [],
        feedback: [],
        callIds: [],
        startedAt: event.time,
        ended: false,
      };
      steps.set(event.step, current);
      continue;
    }
    if (current === undefined) continue;
    switch (event.type) {
      case 'planner-answer':
        if (event.valid && event.fields !== undefined) current.fields = event.fields;
        else current.invalidAnswers.push({ level: event.level, error: event.error ?? 'invalid' });
        break;
      case 'action-start':
        current.action = event.action;
        current.input = event.input;
        break;
      case 'action-end':
        current.result = event;
        break;
      case 'execution-end':
        current.executions.push(event);
        break;
      case 'guard-refusal':
        current.refusals.push(event);
        break;
      case 'feedback-given':
        current.feedback.push(event);
        break;
      case 'llm-start':
        current.callIds.push(event.callId);
        break;
      case 'step-end':
        current.ended = true;
        current.action ??= event.action;
        break;
      case 'run-start':
        if (!current.ended) current.cutShort = 'killed';
        current = undefined;
        break;
      case 'run-end':
        if (!current.ended) current.cutShort = event.status;
        current = undefined;
        break;
      default:
        break;
    }
  }
  return [...steps.values()].sort((left, right) => left.step - right.step);
}

/** The planner's latest Research Plan and Status: the plan the agent is following now. */
export function currentPlan(events: readonly CodifyEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'planner-answer' && event.valid) {
      const plan = event.fields?.['Research Plan and Status'];
      if (plan !== undefined) return plan;
    }
  }
  return undefined;
}

/** The starter's metric as codify measured it at the start (stage measure-starter). */
export function starterMetric(
  events: readonly CodifyEvent[],
): { name: string; value: number } | undefined {
  for (const event of events) {
    if (event.type === 'stage-end' && event.stage === 'measure-starter' && event.ok) {
      const match = /^([^:\n]+):\s*(-?[0-9]*\.?[0-9]+(?:e[-+]?\d+)?)/i.exec(event.detail ?? '');
      if (match?.[1] !== undefined && match[2] !== undefined) {
        return { name: match[1].trim(), value: Number(match[2]) };
      }
    }
  }
  return undefined;
}

export interface MetricPoint {
  /** 1-based count of script executions. */
  execution: number;
  script: string;
  value: number;
  time: string;
}

/** The metric of every execution that printed one, in order. */
export function metricSeries(events: readonly CodifyEvent[]): MetricPoint[] {
  const points: MetricPoint[] = [];
  let execution = 0;
  for (const event of events) {
    if (event.type !== 'execution-end') continue;
    execution += 1;
    if (typeof event.metric === 'number') {
      points.push({ execution, script: event.script, value: event.metric, time: event.time });
    }
  }
  return points;
}

/** The last budget tick, or undefined before the first step ends. */
export function latestBudget(events: readonly CodifyEvent[]): EventOf<'budget-update'> | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'budget-update') return event;
  }
  return undefined;
}
