import { MissingApiKeyError } from '../llm/missing-api-key-error.js';
import { ModelUnreachableError } from '../llm/model-unreachable-error.js';
import { ReplayError, ReplayMismatchError } from '../llm/replay-errors.js';
import type { ChatMessage, ModelCaller } from '../llm/types.js';
import type { CodifyEventBody } from '../runs/events.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import type { ActionDefinition } from './actions/types.js';
import { findRepetition } from './guards/repeated-text.js';
import { type ParsedResponse, parseResponse } from './response-format.js';

export interface CascadeRequest {
  models: ModelCaller;
  /** The run's stable prefix: the same text every step. */
  system?: string;
  /**
   * Runs of user messages that only grow from step to step (the planner's research log,
   * then its steps in full), sent before the prompt; each run's last message carries a
   * cache mark.
   */
  blocks?: readonly (readonly string[])[];
  prompt: string;
  /** The actions accepted in this answer (only Final Answer when a budget forces it). */
  actions: readonly ActionDefinition[];
  attemptsPerLevel: readonly number[];
  step: number;
  emit(body: CodifyEventBody): void;
  signal?: AbortSignal;
}

export type CascadeResult =
  | { ok: true; response: ParsedResponse; text: string; level: number; attempts: number }
  | { ok: false; reasons: string[]; attempts: number };

/** A block as user messages, one per text, the last marked as the end of a stable prefix. */
function blockMessages(block: readonly string[]): ChatMessage[] {
  return block.map((content, index) =>
    index === block.length - 1
      ? { role: 'user', content, cacheMark: true }
      : { role: 'user', content },
  );
}

function attemptsAt(level: number, attemptsPerLevel: readonly number[]): number {
  return Math.max(1, attemptsPerLevel[level] ?? attemptsPerLevel.at(-1) ?? 1);
}

/**
 * Asks the planner cascade for one valid answer. Each level gets its attempts, every retry
 * told why the last answer was refused; then the next level starts afresh. Never throws:
 * when no level answers validly the reasons come back.
 */
export async function askPlanner(request: CascadeRequest): Promise<CascadeResult> {
  const levels = Math.max(1, request.models.levels('planner'));
  const reasons: string[] = [];
  let attempts = 0;
  for (let level = 0; level < levels; level += 1) {
    let retry: ChatMessage[] = [];
    for (let attempt = 0; attempt < attemptsAt(level, request.attemptsPerLevel); attempt += 1) {
      attempts += 1;
      let text: string;
      try {
        const answer = await request.models.call({
          role: 'planner',
          level,
          label: `step ${request.step}`,
          expect:
            'the six fields Reflection, Research Plan and Status, Fact Check, Thought, Action, Action Input',
          ...(request.system === undefined ? {} : { system: request.system }),
          messages: [
            ...(request.blocks ?? []).flatMap(blockMessages),
            { role: 'user', content: request.prompt },
            ...retry,
          ],
          signal: request.signal,
        });
        text = answer.text;
      } catch (error) {
        // Asking again cannot help: the session differs from its recording, a key is missing,
        // or the provider cannot be reached.
        if (isPermanentModelError(error)) throw error;
        const reason = `the model call failed: ${error instanceof Error ? error.message : String(error)}`;
        reasons.push(`level ${level}: ${reason}`);
        request.emit({
          type: 'planner-answer',
          step: request.step,
          level,
          valid: false,
          error: reason,
        });
        if (request.signal?.aborted === true) return { ok: false, reasons, attempts };
        continue;
      }
      const repetition = findRepetition(text);
      const parsed = repetition === undefined ? parseResponse(text, request.actions) : undefined;
      if (parsed?.ok === true) {
        request.emit({
          type: 'planner-answer',
          step: request.step,
          level,
          valid: true,
          fields: parsed.response.fields,
        });
        return { ok: true, response: parsed.response, text, level, attempts };
      }
      const reason = repetition ?? (parsed?.ok === false ? parsed.reason : 'unreadable answer');
      reasons.push(`level ${level}: ${reason}`);
      request.emit({
        type: 'planner-answer',
        step: request.step,
        level,
        valid: false,
        error: reason,
      });
      // Only the latest refusal is kept, so retries do not grow the prompt.
      retry = [
        { role: 'assistant', content: repetition === undefined ? text : text.slice(0, 2000) },
        { role: 'user', content: loadPrompt('agent-invalid-answer', { reason }) },
      ];
    }
  }
  return { ok: false, reasons, attempts };
}

/** Model errors that no retry or other cascade level can cure; they end the run with their message. */
export function isPermanentModelError(error: unknown): boolean {
  return (
    error instanceof ReplayMismatchError ||
    error instanceof ReplayError ||
    error instanceof MissingApiKeyError ||
    error instanceof ModelUnreachableError
  );
}
