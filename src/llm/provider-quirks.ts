import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelSpec } from './model-spec.js';

export interface CallAdjustments {
  /** Whether the model accepts a temperature at all. */
  temperature: boolean;
  providerOptions?: SharedV3ProviderOptions;
}

/** OpenAI's reasoning models reject sampling settings. */
const openaiReasoningModel = /^(o\d|gpt-5)/;

/** Every provider-specific adjustment codify makes, in one place. */
export function callAdjustments(spec: ModelSpec): CallAdjustments {
  switch (spec.provider) {
    case 'openai':
      return {
        temperature: !openaiReasoningModel.test(spec.model),
        // codify sends the whole conversation each call; nothing needs storing server-side.
        providerOptions: { openai: { store: false } },
      };
    default:
      return { temperature: true };
  }
}
