import type { ActionResult } from './types.js';

/** A successful action; `display` defaults to the observation. */
export function succeed(observation: string, display = observation): ActionResult {
  return { ok: true, observation, display };
}

/** How an action is called, as the model should write it. */
export function usageLine(name: string, usage: Record<string, unknown>): string {
  return `Usage: Action: ${name}\nAction Input: ${JSON.stringify(usage, null, 1).replace(/\n\s*/g, ' ')}`;
}

/** A failed action: the reason, then the usage to follow. */
export function fail(name: string, reason: string, usage: Record<string, unknown>): ActionResult {
  const observation = `${name} failed: ${reason}\n${usageLine(name, usage)}`;
  return { ok: false, observation, display: `${name} failed: ${reason}` };
}
