import { generateText, type LanguageModel } from 'ai';
import type { AnswerRequest, AnswerResult, Answerer } from './answerer.js';
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
      ...(request.system === undefined ? {} : { system: request.system }),
      messages: request.messages.map((message) => ({
        role: message.role,
        content: message.content,
      })),
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
