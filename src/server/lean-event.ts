import type { CodifyEvent } from '../runs/events.js';

/**
 * An event as `/events?lean=1` sends it: a model call without its prompt (`messages` empty,
 * `system` left out, `promptOmitted` set; GET /api/runs/:id/prompt?seq= has it), a step-end
 * without its checkpoint (state for resuming, never shown). Prompts are most of a long run's
 * log (a planner's carries the task, the research log and the last steps, every step), and
 * the page shows one only when a person opens that call.
 */
export function leanEventLine(text: string, event: CodifyEvent): string {
  if (event.type === 'llm-end' && (event.messages.length > 0 || event.system !== undefined)) {
    const lean: Record<string, unknown> = { ...event, messages: [], promptOmitted: true };
    delete lean.system;
    return JSON.stringify(lean);
  }
  if (event.type === 'step-end' && event.checkpoint !== undefined) {
    const lean: Record<string, unknown> = { ...event };
    delete lean.checkpoint;
    return JSON.stringify(lean);
  }
  return text;
}
