import { CodifyError } from '../errors/codify-error.js';
import { exitCodes } from '../errors/exit-codes.js';
import type { z } from 'zod';
import type { ChatMessage, ModelAnswer, ModelCaller, ModelRequest } from './types.js';

/** The model never produced an answer that fits the schema, after every re-ask. */
export class StructuredAnswerError extends CodifyError {
  constructor(
    readonly label: string,
    readonly lastProblem: string,
    readonly attempts: number,
  ) {
    super(
      `${label}: no valid answer after ${attempts} attempts; last problem: ${lastProblem}`,
      exitCodes.model,
    );
    this.name = 'StructuredAnswerError';
  }
}

/**
 * Takes the JSON out of an answer: the last ```json fence, any fence, or the outermost
 * braces. A ```json fence whose JSON holds three backticks in a string (a fenced block in
 * a text value) is read to the closing fence that makes it parse.
 */
export function extractJson(text: string): string | undefined {
  const parsable = parsableJsonFence(text);
  if (parsable !== undefined) return parsable;
  const fences = [...text.matchAll(/```(?:json)?[^\n]*\n([\s\S]*?)```/g)];
  const jsonFence = fences.filter((match) => /^```json/i.test(match[0])).at(-1) ?? fences.at(-1);
  if (jsonFence?.[1] !== undefined) return jsonFence[1].trim();
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  const closing = text[start] === '{' ? '}' : ']';
  const end = text.lastIndexOf(closing);
  return end > start ? text.slice(start, end + 1) : undefined;
}

/** The last ```json fence, read to the first fence after it that makes it parse; undefined if none does. */
function parsableJsonFence(text: string): string | undefined {
  const opening = [...text.matchAll(/```json[^\n]*\n/gi)].at(-1);
  if (opening === undefined) return undefined;
  const start = opening.index + opening[0].length;
  for (let close = text.indexOf('```', start); close >= 0; close = text.indexOf('```', close + 3)) {
    const candidate = text.slice(start, close).trim();
    if (parses(candidate)) return candidate;
  }
  return undefined;
}

function parses(candidate: string): boolean {
  try {
    JSON.parse(candidate);
    return true;
  } catch {
    return false;
  }
}

/** Why a JSON answer does not fit, in words the model can fix. */
export function describeProblem(text: string, schema: z.ZodType): string | { value: unknown } {
  const json = extractJson(text);
  if (json === undefined) return 'the answer holds no JSON object; answer with one ```json block';
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    return `the JSON does not parse: ${error instanceof Error ? error.message : String(error)}`;
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { value: result.data };
  return result.error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

export interface ValidatedResult<T> {
  value: T;
  answer: ModelAnswer;
  /** The conversation including the accepted answer, for stages that continue it. */
  messages: ChatMessage[];
}

/** A parser: the value, or why the answer cannot be used, in words the model can fix. */
export type AnswerParser<T> = (
  text: string,
) => { value: T } | string | Promise<{ value: T } | string>;

/**
 * Asks until `parse` accepts the answer; an unusable answer is re-asked with the reason,
 * never silently dropped. Throws StructuredAnswerError when every try fails.
 */
export async function askValidated<T>(
  models: ModelCaller,
  request: ModelRequest,
  parse: AnswerParser<T>,
  options: { maxAttempts?: number; retryHint?: string } = {},
): Promise<ValidatedResult<T>> {
  const maxAttempts = options.maxAttempts ?? 3;
  const messages = [...request.messages];
  let lastProblem = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const answer = await models.call({ ...request, messages: [...messages] });
    messages.push({ role: 'assistant', content: answer.text });
    const outcome = await parse(answer.text);
    if (typeof outcome !== 'string') return { value: outcome.value, answer, messages };
    lastProblem = outcome;
    messages.push({
      role: 'user',
      content: `Your answer could not be used: ${lastProblem}.\n${options.retryHint ?? 'Answer again, corrected.'}`,
    });
  }
  throw new StructuredAnswerError(request.label ?? request.role, lastProblem, maxAttempts);
}

/** Asks for JSON that must fit `schema` (and `check`, for cross-checks against earlier stages). */
export async function askStructured<T>(
  models: ModelCaller,
  request: ModelRequest,
  schema: z.ZodType<T>,
  options: { maxAttempts?: number; check?: (value: T) => string | undefined } = {},
): Promise<ValidatedResult<T>> {
  return askValidated(
    models,
    request,
    (text) => {
      const outcome = describeProblem(text, schema);
      if (typeof outcome === 'string') return outcome;
      const value = outcome.value as T;
      return options.check?.(value) ?? { value };
    },
    {
      maxAttempts: options.maxAttempts,
      retryHint: 'Answer again with the corrected JSON only, in one ```json block.',
    },
  );
}
