import { splitLines } from './numbered-lines.js';

export interface FileChunk {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  lines: string[];
}

export interface ChunkLimits {
  maxLines: number;
  maxCharacters: number;
}

/** Sized so one chunk plus the prompt fits comfortably in a small model's context. */
export const defaultChunkLimits: ChunkLimits = { maxLines: 200, maxCharacters: 12_000 };

/** Splits text at line boundaries into chunks of at most maxLines lines and about maxCharacters. */
export function chunkFile(text: string, limits: ChunkLimits = defaultChunkLimits): FileChunk[] {
  const lines = splitLines(text);
  const chunks: FileChunk[] = [];
  let current: string[] = [];
  let characters = 0;
  let startLine = 1;
  lines.forEach((line, index) => {
    const full = current.length >= limits.maxLines;
    const tooLong = current.length > 0 && characters + line.length + 1 > limits.maxCharacters;
    if (full || tooLong) {
      chunks.push({ startLine, endLine: startLine + current.length - 1, lines: current });
      startLine = index + 1;
      current = [];
      characters = 0;
    }
    current.push(line);
    characters += line.length + 1;
  });
  if (current.length > 0)
    chunks.push({ startLine, endLine: startLine + current.length - 1, lines: current });
  return chunks;
}
