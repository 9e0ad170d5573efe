import type { ActionDefinition, ActionPool } from '../actions/types.js';
import type { AgentOptions } from '../agent-options.js';

/** What the guards remember between steps; part of every checkpoint. */
export interface GuardState {
  /** Pool of the last actions run and how many in a row came from it. */
  pool: ActionPool | null;
  poolRun: number;
  /** The last action run, its input as canonical JSON. */
  lastAction: { name: string; input: string } | null;
}

export const initialGuardState = (): GuardState => ({ pool: null, poolRun: 0, lastAction: null });

export interface GuardRefusal {
  guard: 'pool-cap' | 'duplicate-action';
  message: string;
}

/** ResearchCodeAgent's decaying cap: floor(start · e^(−decay · step)), at least 1. */
export function poolCap(
  step: number,
  options: Pick<AgentOptions, 'poolCapStart' | 'poolCapDecay'>,
): number {
  return Math.max(1, Math.floor(options.poolCapStart * Math.exp(-options.poolCapDecay * step)));
}

/** JSON with keys sorted, so the same input written in another key order is the same input. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) =>
      left < right ? -1 : left > right ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Why the guards refuse this action now, or undefined when it may run. */
export function checkGuards(
  state: GuardState,
  action: ActionDefinition,
  input: unknown,
  step: number,
  options: AgentOptions,
  actions: readonly ActionDefinition[],
): GuardRefusal | undefined {
  const key = canonicalJson(input);
  if (state.lastAction?.name === action.name && state.lastAction.input === key) {
    return {
      guard: 'duplicate-action',
      message: `Refused: ${action.name} with this same input was the previous action; repeating it gives the same observation. Use what it showed, or choose a different action or input.`,
    };
  }
  if (action.pool !== 'general' && state.pool === action.pool) {
    const cap = poolCap(step, options);
    if (state.poolRun >= cap) {
      const others = actions
        .filter((other) => other.pool !== action.pool)
        .map((other) => other.name)
        .join(', ');
      return {
        guard: 'pool-cap',
        message: `Refused: ${state.poolRun} ${action.pool} actions in a row reach the limit of ${cap} at step ${step}. Make progress with an action from another pool: ${others}.`,
      };
    }
  }
  return undefined;
}

/** The guard state after an action ran. */
export function advanceGuards(
  state: GuardState,
  action: ActionDefinition,
  input: unknown,
): GuardState {
  return {
    pool: action.pool,
    poolRun: state.pool === action.pool ? state.poolRun + 1 : 1,
    lastAction: { name: action.name, input: canonicalJson(input) },
  };
}

/** A note for the planner prompt: how close the current pool is to its cap. */
export function guardNote(state: GuardState, step: number, options: AgentOptions): string {
  if (state.pool === null || state.pool === 'general') return '';
  const cap = poolCap(step, options);
  const left = cap - state.poolRun;
  if (left > 2) return '';
  return left <= 0
    ? `You have run ${state.poolRun} ${state.pool} actions in a row, the limit at this step (${cap}); the next action must come from another pool.`
    : `You have run ${state.poolRun} ${state.pool} actions in a row; the limit at this step is ${cap}.`;
}
