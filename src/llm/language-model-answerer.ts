import { generateText, type LanguageModel } from 'ai';
import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import type { AnswerRequest, AnswerResult, Answerer } from './answerer.js';
import type { ChatMessage } from './types.js';
import { parseModelSpec } from './model-spec.js';
import { callAdjustments } from './provider-quirks.js';

/** Answers through the Vercel AI SDK's generateText, with the SDK's own retries off. */
export class LanguageModelAnswerer implements Answerer {
  readonly remote = true;

  constructor(private readonly model: LanguageModel) {}

  async answer(request: AnswerRequest): Promise<AnswerResult> {
    const adjustments = callAdjustments(parseModelSpec(request.spec));
    const result = await generateText({
      model: this.model,
      ...promptWithCacheMarks(request, adjustments.cacheMark),
      ...(adjustments.temperature ? { temperature: request.temperature } : {}),
      ...(request.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: request.maxOutputTokens }),
      ...(adjustments.providerOptions === undefined
        ? {}
        : { providerOptions: adjustments.providerOptions }),
      maxRetries: 0,
      abortSignal: request.signal,
    });
    const usage = result.usage;
    return {
      text: result.text,
      usage: {
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        cachedInputTokens: usage.inputTokenDetails.cacheReadTokens ?? 0,
      },
    };
  }
}

/**
 * The system prompt and messages for generateText. With a cache mark, the system prompt
 * becomes a marked system message (what the calls of a stage share), and so does each
 * message that ends a prefix a later call continues (`cacheMark`: the planner's
 * append-only history, a planning conversation's question). A message no later call
 * continues gets no mark: a mark makes Anthropic write the prefix at 1.25 times the input
 * rate, which only pays when a later call reads it. Anthropic takes four marks at most, so
 * only the last three named messages keep theirs.
 */
function promptWithCacheMarks(
  request: AnswerRequest,
  mark: SharedV3ProviderOptions | undefined,
): { system?: string; messages: ModelMessage[] } {
  const named = request.messages.flatMap((message, index) =>
    message.cacheMark === true ? [index] : [],
  );
  const kept = new Set(named.slice(-maxMessageMarks));
  const messages: ModelMessage[] = request.messages.map((message, index) => {
    const model = toModelMessage(message);
    return mark !== undefined && kept.has(index) ? { ...model, providerOptions: mark } : model;
  });
  if (request.system === undefined) return { messages };
  if (mark === undefined) return { system: request.system, messages };
  return {
    messages: [{ role: 'system', content: request.system, providerOptions: mark }, ...messages],
  };
}

/** Anthropic's four cache marks, one of them the system prompt's. */
const maxMessageMarks = 3;

/**
 * One message for the AI SDK: a plain string when it has no files (what every text call has
 * always sent), else a text part followed by one file part per file, which each provider
 * turns into its own form (Anthropic `document`, Google `inlineData`, OpenAI `input_file`).
 */
function toModelMessage(message: ChatMessage): ModelMessage {
  const files = message.files ?? [];
  if (files.length === 0 || message.role === 'assistant') {
    return { role: message.role, content: message.content };
  }
  return {
    role: 'user',
    content: [
      { type: 'text', text: message.content },
      ...files.map((file) => ({
        type: 'file' as const,
        data: file.data,
        mediaType: file.mediaType,
        ...(file.filename === undefined ? {} : { filename: file.filename }),
      })),
    ],
  };
}
