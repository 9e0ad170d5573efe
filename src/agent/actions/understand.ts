import { callWorker, userMessage } from './worker-call.js';
import { chunkFile } from './file-chunks.js';
import { material } from './material.js';
import { numberLines, splitLines } from './numbered-lines.js';
import type { ActionContext } from './types.js';

export interface UnderstandRequest {
  fileName: string;
  thingsToLookFor: string;
  /** Titled blocks shown with every chunk (context files). */
  contextBlocks: string[];
  prompt: string;
  label: string;
}

/**
 * Reads a file chunk by chunk with the worker, each chunk labelled with its real line
 * range, then merges the answers with one more call when there are several.
 */
export async function understandFile(
  context: ActionContext,
  request: UnderstandRequest,
): Promise<string> {
  const text = await context.workspace.read(request.fileName);
  const total = splitLines(text).length;
  if (total === 0) return `${request.fileName} is empty.`;
  const chunks = chunkFile(text);
  const slots = { things_to_look_for: request.thingsToLookFor };
  const notes: { title: string; text: string }[] = [];
  for (const chunk of chunks) {
    const title = `${request.fileName}, lines ${chunk.startLine}-${chunk.endLine} of ${total}`;
    const answer = await callWorker(context, {
      prompt: request.prompt,
      slots,
      messages: userMessage(
        [...request.contextBlocks, material(title, numberLines(chunk.lines, chunk.startLine))].join(
          '\n\n',
        ),
      ),
      expect: `what lines ${chunk.startLine}-${chunk.endLine} show about: ${request.thingsToLookFor}`,
      label: `${request.label} ${chunk.startLine}-${chunk.endLine}`,
    });
    notes.push({
      title: `Notes on lines ${chunk.startLine}-${chunk.endLine}`,
      text: answer.text.trim(),
    });
  }
  const only = notes[0];
  if (notes.length === 1 && only !== undefined) return only.text;
  const merged = await callWorker(context, {
    prompt: 'action-understand-file-merge',
    slots,
    messages: userMessage(notes.map((note) => material(note.title, note.text)).join('\n\n')),
    expect: `one answer about the whole of ${request.fileName}`,
    label: `${request.label} merge`,
  });
  return merged.text.trim();
}
