import { exitCodes } from '../errors/exit-codes.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseEventLines } from '../runs/parse-event-lines.js';
import { recordedCallsFromEvents } from './calls-from-events.js';
import type { RecordedCall } from './recorded-call.js';
import { ReplayError } from './replay-errors.js';
import { roleNames } from './types.js';

const fileSchema = z.object({
  mediaType: z.string(),
  filename: z.string().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
});
const messageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  files: z.array(fileSchema).optional(),
});
const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number().default(0),
});
const recordedCallSchema = z.object({
  call: z.number().int().positive(),
  role: z.enum(roleNames),
  model: z.string(),
  system: z.string().optional(),
  messages: z.array(messageSchema),
  text: z.string(),
  usage: usageSchema,
  costUsd: z.number().nullable().optional(),
});

/** True when the first line is a run's event (`type` and `seq`), not a recorded call. */
function isEventLog(text: string): boolean {
  const first = text.split('\n').find((line) => line.trim() !== '');
  if (first === undefined) return false;
  try {
    const json: unknown = JSON.parse(first);
    return typeof json === 'object' && json !== null && 'type' in json && 'seq' in json;
  } catch {
    return false;
  }
}

/** The calls of a run's events.jsonl (its llm-end events), for `replay:RUN/events.jsonl`. */
function readEventLogCalls(file: string, text: string): RecordedCall[] {
  const { events, problems } = parseEventLines(Buffer.from(text, 'utf8'));
  const problem = problems[0];
  if (problem !== undefined) {
    throw new ReplayError(
      `replay: ${file} line ${problem.line} is not an event (${problem.message})`,
      exitCodes.input,
    );
  }
  const calls = recordedCallsFromEvents(events);
  if (calls.length === 0) {
    throw new ReplayError(
      `replay: the event log ${file} holds no completed model calls`,
      exitCodes.input,
    );
  }
  return calls;
}

/**
 * Reads a JSONL recording (`--record FILE`), or a run's events.jsonl, whose llm-end events
 * are its recording; a broken line is an error naming the file and line.
 */
export function readRecording(file: string): RecordedCall[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReplayError(`replay: cannot read the recording ${file} (${reason})`, exitCodes.input);
  }
  if (isEventLog(text)) return readEventLogCalls(file, text);
  const calls: RecordedCall[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new ReplayError(`replay: ${file} line ${index + 1} is not valid JSON`, exitCodes.input);
    }
    const parsed = recordedCallSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      throw new ReplayError(
        `replay: ${file} line ${index + 1} is not a recorded call (${path}: ${issue?.message ?? 'invalid'})`,
        exitCodes.input,
      );
    }
    const { system, costUsd, ...rest } = parsed.data;
    calls.push({
      ...rest,
      ...(system === undefined ? {} : { system }),
      ...(costUsd === undefined ? {} : { costUsd }),
    });
  });
  return calls;
}
