/** The roles codify gives models; the planner is a cascade of one or more models. */
export const roleNames = ['planner', 'expert', 'worker', 'summarizer', 'judge'] as const;
export type RoleName = (typeof roleNames)[number];

/** A file sent with a message, e.g. a paper's PDF for a model that reads PDFs itself. */
export interface ChatFile {
  /** IANA media type, e.g. `application/pdf`. */
  mediaType: string;
  data: Uint8Array;
  filename?: string;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  /** Files sent after the text; only user messages carry them. Absent on text-only calls. */
  files?: ChatFile[];
  /**
   * The end of a prefix a later call continues (the planner's append-only history, a
   * planning conversation's question): providers that cache only where told get a cache
   * mark here. Messages without it get none (the system prompt is always marked).
   */
  cacheMark?: true;
}

/**
 * A file as recordings and events keep it: its hash and size instead of its bytes, so a
 * recording stays small and readable and replay can still tell a different file apart.
 */
export interface StoredFile {
  mediaType: string;
  filename?: string;
  /** Hex sha256 of the bytes. */
  sha256: string;
  size: number;
}

/** A message as recordings and events keep it (files by hash, see StoredFile). */
export interface StoredMessage {
  role: 'user' | 'assistant';
  content: string;
  files?: StoredFile[];
  cacheMark?: true;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (a subset of inputTokens). */
  cachedInputTokens: number;
}

/** One request a pipeline makes of a role. */
export interface ModelRequest {
  role: RoleName;
  /** Cascade level for roles with several models (planner); 0 is the first. */
  level?: number;
  system?: string;
  messages: ChatMessage[];
  /** What a good answer looks like, in a sentence; shown to people answering by hand. */
  expect?: string;
  /** Overrides the role's configured temperature for this call. */
  temperature?: number;
  maxOutputTokens?: number;
  /** A short label for logs and exchange file names, e.g. the action being run. */
  label?: string;
  signal?: AbortSignal;
}

export interface ModelAnswer {
  callId: number;
  role: RoleName;
  /** The spec that answered, e.g. `openai:gpt-4o`. */
  model: string;
  text: string;
  usage: Usage;
  /** Dollars; null when the price of this model is unknown. */
  costUsd: number | null;
  latencyMs: number;
  attempts: number;
}

/** What every pipeline uses to talk to models; one implementation per run (src/llm/router.ts). */
export interface ModelCaller {
  call(request: ModelRequest): Promise<ModelAnswer>;
  /** How many cascade levels a role has (1 for roles with a single model). */
  levels(role: RoleName): number;
  /** The spec configured for a role at a level, for display. */
  spec(role: RoleName, level?: number): string;
  /** Tokens and dollars spent so far (the router, src/llm/router.ts, implements it). */
  totals?(): CallTotals;
}

/** What a caller has spent so far. */
export interface CallTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Sum of the known costs, in dollars. */
  costUsd: number;
  /** Calls whose model has no known price; when above 0, costUsd is a lower bound. */
  unpricedCalls: number;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
