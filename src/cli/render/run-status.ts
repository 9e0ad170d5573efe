import type { CodifyEvent } from '../../runs/events.js';
import { emptyTotals, addToTotals } from '../../runs/run-totals.js';
import type { RunTotals } from '../../runs/events.js';
import { formatCost, formatDuration, formatTokens } from './format-values.js';

/** What the live status line shows, folded from the event stream. */
export interface RunStatusState {
  startMs: number | undefined;
  step: number | undefined;
  stage: string | undefined;
  action: string | undefined;
  /** The model being waited on, e.g. `planner openai:gpt-4o`. */
  waitingOn: string | undefined;
  totals: RunTotals;
}

export const initialRunStatus = (): RunStatusState => ({
  startMs: undefined,
  step: undefined,
  stage: undefined,
  action: undefined,
  waitingOn: undefined,
  totals: emptyTotals(),
});

/** Folds one event into the status (in place). */
export function updateRunStatus(state: RunStatusState, event: CodifyEvent): void {
  state.startMs ??= Date.parse(event.time);
  addToTotals(state.totals, event);
  switch (event.type) {
    case 'step-start':
      state.step = event.step;
      state.action = undefined;
      break;
    case 'stage-start':
      state.stage = event.stage;
      break;
    case 'stage-end':
      if (state.stage === event.stage) state.stage = undefined;
      break;
    case 'action-start':
      state.action = event.action;
      break;
    case 'action-end':
      state.action = undefined;
      break;
    case 'llm-start':
      state.waitingOn = `${event.role} ${event.model}`;
      break;
    case 'llm-end':
    case 'llm-error':
      state.waitingOn = undefined;
      break;
    default:
      break;
  }
}

/** `step 3 · Edit Script · planner openai:gpt-4o… · 12.3k tok · $0.0123 · 1m05s` */
export function formatRunStatus(state: RunStatusState, nowMs: number): string {
  const parts: string[] = [];
  if (state.stage !== undefined) parts.push(state.stage);
  if (state.step !== undefined) parts.push(`step ${state.step}`);
  if (state.action !== undefined) parts.push(state.action);
  if (state.waitingOn !== undefined) parts.push(`${state.waitingOn}…`);
  parts.push(`${formatTokens(state.totals.inputTokens + state.totals.outputTokens)} tok`);
  parts.push(formatCost(state.totals));
  if (state.startMs !== undefined) parts.push(formatDuration(nowMs - state.startMs));
  return parts.join(' · ');
}
