import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { createModelCaller } from '../../src/llm/create-model-caller.js';
import type { ChatMessage } from '../../src/llm/types.js';
import { startFakeServer, type FakeServer } from './fake-provider-server.js';
import { wireFormats, type WireFormat } from './provider-wire-formats.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const formatOf = (provider: string): WireFormat => {
  const format = wireFormats.find((candidate) => candidate.provider === provider);
  if (format === undefined) throw new Error(`no wire format for ${provider}`);
  return format;
};

// A continued conversation, as the paper pipeline's planning sends it.
const conversation: ChatMessage[] = [
  { role: 'user', content: 'Write the overall plan.' },
  { role: 'assistant', content: '## Method\n…' },
  { role: 'user', content: 'Now the architecture.' },
];

interface Block {
  type?: string;
  text?: string;
  cache_control?: unknown;
}
interface AnthropicBody {
  system?: Block[];
  messages?: { role: string; content: Block[] | string }[];
}

async function send(format: WireFormat, messages: ChatMessage[] = conversation) {
  const server = await startFakeServer([{ kind: 'answer', body: format.answer('ok') }]);
  servers.push(server);
  const config = defaultConfig();
  config.roles.planner.models = [`${format.provider}:${format.model}`];
  config.providers[format.provider] = { baseURL: `${server.origin}${format.basePath}` };
  const env = format.keyVariable === undefined ? {} : { [format.keyVariable]: 'test-key' };
  const caller = createModelCaller(config, { env });
  // A continued conversation, as the paper pipeline's planning sends it.
  const answer = await caller.call({
    role: 'planner',
    system: 'You turn papers into repositories.\n<paper>the whole paper</paper>',
    messages,
  });
  return { answer, body: server.received[0]?.body };
}

describe('prompt caching', () => {
  it("marks the system prompt and a continued conversation's question with cache_control for Anthropic", async () => {
    const marked: ChatMessage[] = conversation.map((message, index) =>
      index === conversation.length - 1 ? { ...message, cacheMark: true } : message,
    );
    const { answer, body } = await send(formatOf('anthropic'), marked);
    const sent = body as AnthropicBody;
    expect(sent.system).toEqual([
      {
        type: 'text',
        text: 'You turn papers into repositories.\n<paper>the whole paper</paper>',
        cache_control: { type: 'ephemeral' },
      },
    ]);
    const messages = sent.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const blocks = (index: number): Block[] => {
      const content = messages[index]?.content;
      return Array.isArray(content) ? content : [];
    };
    expect(blocks(2).at(-1)).toMatchObject({
      text: 'Now the architecture.',
      cache_control: { type: 'ephemeral' },
    });
    // Only the two ends of the stable prefix are marked: Anthropic allows four marks.
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(2);
    expect(blocks(0)[0]?.cache_control).toBeUndefined();
    expect(answer.usage.cachedInputTokens).toBe(20);
  });

  it('marks only the system prompt of a request no later call continues (a mark costs a cache write)', async () => {
    const { body } = await send(formatOf('anthropic'));
    const sent = body as AnthropicBody;
    expect(sent.system?.[0]?.cache_control).toEqual({ type: 'ephemeral' });
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(1);
  });

  it('keeps the last three named marks of a request, Anthropic taking four with the system', async () => {
    const { body } = await send(
      formatOf('anthropic'),
      ['a', 'b', 'c', 'd', 'e'].flatMap((text): ChatMessage[] => [
        { role: 'user', content: `question ${text}`, cacheMark: true },
        { role: 'assistant', content: `answer ${text}` },
      ]),
    );
    const sent = JSON.stringify(body);
    expect(sent.match(/cache_control/g)).toHaveLength(4);
    const marked = (body as AnthropicBody).messages
      ?.flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .filter((block) => block.cache_control !== undefined)
      .map((block) => block.text);
    expect(marked).toEqual(['question c', 'question d', 'question e']);
  });

  it('marks the system prompt and the end of a named stable prefix (the planner history), not the last message', async () => {
    const { body } = await send(formatOf('anthropic'), [
      { role: 'user', content: '# Research log' },
      { role: 'user', content: '## Step 1: List Files\nfound a.py', cacheMark: true },
      { role: 'user', content: '# Previous steps in full\n…\n# Your answer for step 5' },
    ]);
    const sent = body as AnthropicBody;
    expect(sent.system?.[0]?.cache_control).toEqual({ type: 'ephemeral' });
    // consecutive user messages reach Anthropic as one message of three text blocks
    const messages = sent.messages ?? [];
    expect(messages).toHaveLength(1);
    const content = messages[0]?.content;
    const blocks = Array.isArray(content) ? content : [];
    expect(blocks.map((block) => block.cache_control)).toEqual([
      undefined,
      { type: 'ephemeral' },
      undefined,
    ]);
    expect(blocks[1]?.text).toBe('## Step 1: List Files\nfound a.py');
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(2);
  });

  it('sends no cache marks to providers that cache on their own', async () => {
    for (const provider of ['openai', 'google']) {
      const { answer, body } = await send(formatOf(provider));
      expect(JSON.stringify(body)).not.toMatch(/cache_?control/i);
      expect(JSON.stringify(body)).toContain('the whole paper');
      expect(answer.usage.cachedInputTokens).toBe(20);
    }
  });
});
