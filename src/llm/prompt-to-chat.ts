import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ChatMessage } from './types.js';

export interface ChatPrompt {
  system?: string;
  messages: ChatMessage[];
}

/** The AI SDK's prompt back in codify's terms: text parts joined, system messages merged. */
export function promptToChat(prompt: LanguageModelV3Prompt): ChatPrompt {
  const systems: string[] = [];
  const messages: ChatMessage[] = [];
  for (const message of prompt) {
    if (message.role === 'system') {
      systems.push(message.content);
    } else if (message.role === 'user' || message.role === 'assistant') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      messages.push({ role: message.role, content: text });
    }
  }
  return systems.length === 0 ? { messages } : { system: systems.join('\n\n'), messages };
}
