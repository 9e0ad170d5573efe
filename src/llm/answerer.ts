import type { ChatMessage, RoleName, Usage } from './types.js';

/** One attempt at a call, as the router hands it to whatever produces the answer. */
export interface AnswerRequest {
  callId: number;
  role: RoleName;
  /** The spec answering, e.g. `openai:gpt-4o`. */
  spec: string;
  system?: string;
  messages: ChatMessage[];
  expect?: string;
  label?: string;
  temperature: number;
  maxOutputTokens?: number;
  signal: AbortSignal;
}

export interface AnswerResult {
  text: string;
  usage: Usage;
  /** Set when the answerer knows the cost itself (a replay); otherwise the price table decides. */
  costUsd?: number | null;
}

/** Produces answers for one spec: a hosted model, a folder of files, a recording, a script. */
export interface Answerer {
  answer(request: AnswerRequest): Promise<AnswerResult>;
  /**
   * False for answerers that wait on a person or a file (exchange): the per-call timeout
   * and retries are for network calls only.
   */
  readonly remote: boolean;
}
