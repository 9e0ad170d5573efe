import type { HostedProviderName } from '../../src/llm/model-spec.js';

/** How each provider's API is reached and answers, as its SDK expects on the wire. */
export interface WireFormat {
  provider: HostedProviderName;
  model: string;
  /** The path after the origin that the base URL points at. */
  basePath: string;
  /** The path the SDK posts to, after the origin. */
  requestPath: string;
  keyVariable?: string;
  /** A success answering `text`, with 120 input tokens (20 from cache) and 30 output tokens. */
  answer(text: string): unknown;
  /** The last user message's text as sent on the wire. */
  lastUserText(body: unknown): string;
}

interface Json {
  [key: string]: unknown;
}
const asJson = (value: unknown): Json =>
  typeof value === 'object' && value !== null ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

/** Text of a content value that is a string or a list of parts with `text`. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((part) => {
      const text = asJson(part).text;
      return typeof text === 'string' ? text : '';
    })
    .join('');
}

export const wireFormats: WireFormat[] = [
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    basePath: '/v1',
    requestPath: '/v1/responses',
    keyVariable: 'OPENAI_API_KEY',
    answer: (text) => ({
      id: 'resp_1',
      created_at: 1_700_000_000,
      model: 'gpt-4o-mini',
      output: [
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ],
      incomplete_details: null,
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 20 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 150,
      },
    }),
    lastUserText: (body) => {
      const input = list(asJson(body).input).filter((item) => asJson(item).role === 'user');
      return contentText(asJson(input.at(-1)).content);
    },
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    basePath: '/v1',
    requestPath: '/v1/messages',
    keyVariable: 'ANTHROPIC_API_KEY',
    answer: (text) => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 100,
        output_tokens: 30,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 20,
      },
    }),
    lastUserText: (body) => {
      const messages = list(asJson(body).messages).filter((item) => asJson(item).role === 'user');
      return contentText(asJson(messages.at(-1)).content);
    },
  },
  {
    provider: 'google',
    model: 'gemini-2.5-flash',
    basePath: '/v1beta',
    requestPath: '/v1beta/models/gemini-2.5-flash:generateContent',
    keyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    answer: (text) => ({
      candidates: [
        { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: 120,
        cachedContentTokenCount: 20,
        candidatesTokenCount: 30,
        totalTokenCount: 150,
      },
    }),
    lastUserText: (body) => {
      const contents = list(asJson(body).contents).filter((item) => asJson(item).role === 'user');
      return contentText(asJson(contents.at(-1)).parts);
    },
  },
  {
    provider: 'ollama',
    model: 'llama3.2',
    basePath: '/api',
    requestPath: '/api/chat',
    answer: (text) => ({
      model: 'llama3.2',
      created_at: '2026-01-01T00:00:00Z',
      message: { role: 'assistant', content: text },
      done: true,
      done_reason: 'stop',
      total_duration: 1000,
      load_duration: 10,
      prompt_eval_count: 120,
      prompt_eval_duration: 100,
      eval_count: 30,
      eval_duration: 500,
    }),
    lastUserText: (body) => {
      const messages = list(asJson(body).messages).filter((item) => asJson(item).role === 'user');
      return contentText(asJson(messages.at(-1)).content);
    },
  },
  {
    provider: 'openai-compatible',
    model: 'qwen2.5-coder',
    basePath: '/v1',
    requestPath: '/v1/chat/completions',
    answer: (text) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'qwen2.5-coder',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 120,
        completion_tokens: 30,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 20 },
      },
    }),
    lastUserText: (body) => {
      const messages = list(asJson(body).messages).filter((item) => asJson(item).role === 'user');
      return contentText(asJson(messages.at(-1)).content);
    },
  },
];
