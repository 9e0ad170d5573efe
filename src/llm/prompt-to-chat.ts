import type { LanguageModelV3FilePart, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ChatFile, ChatMessage } from './types.js';

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
      const files = message.content.flatMap((part) =>
        part.type === 'file' ? [chatFile(part)] : [],
      );
      messages.push(
        files.length === 0
          ? { role: message.role, content: text }
          : { role: message.role, content: text, files },
      );
    }
  }
  return systems.length === 0 ? { messages } : { system: systems.join('\n\n'), messages };
}

/** A file part back as bytes; data URLs and base64 strings are decoded, other URLs kept as text. */
function chatFile(part: LanguageModelV3FilePart): ChatFile {
  const data =
    part.data instanceof Uint8Array
      ? part.data
      : part.data instanceof URL
        ? new TextEncoder().encode(part.data.toString())
        : new Uint8Array(Buffer.from(part.data, 'base64'));
  return {
    mediaType: part.mediaType,
    data,
    ...(part.filename === undefined ? {} : { filename: part.filename }),
  };
}
