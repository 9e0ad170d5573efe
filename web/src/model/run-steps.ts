import type { CodifyEvent, EventOf } from '../../../src/runs/events.js';
import { StepModel, type RunStep } from './step-model.js';

export type { RunStep } from './step-model.js';

/**
 * The steps of a run in order; a step that was redone after a resume keeps its last attempt.
 * A page that receives events as they come keeps a StepModel instead (use-run-steps.ts).
 */
export function stepsOf(events: readonly CodifyEvent[]): RunStep[] {
  const model = new StepModel();
  model.applyAll(events);
  return [...model.steps];
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
