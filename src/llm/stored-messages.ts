import { createHash } from 'node:crypto';
import type { ChatFile, ChatMessage, StoredFile, StoredMessage } from './types.js';

/** The stored form of a file: its hash and size stand for the bytes. */
export function storedFile(file: ChatFile): StoredFile {
  return {
    mediaType: file.mediaType,
    ...(file.filename === undefined ? {} : { filename: file.filename }),
    sha256: createHash('sha256').update(file.data).digest('hex'),
    size: file.data.byteLength,
  };
}

/**
 * Messages as recordings and events keep them. Text-only messages come back exactly as they
 * were (no `files` or `cacheMark` key), so recordings made before files existed still match.
 */
export function storedMessages(messages: ChatMessage[]): StoredMessage[] {
  return messages.map((message) => ({
    role: message.role,
    content: message.content,
    ...(message.files === undefined || message.files.length === 0
      ? {}
      : { files: message.files.map(storedFile) }),
    ...(message.cacheMark === true ? { cacheMark: true as const } : {}),
  }));
}
