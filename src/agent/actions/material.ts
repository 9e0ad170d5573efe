import { loadPrompt } from '../../prompts/load-prompt.js';

/** One titled block of material in a message to a model (prompts/action-material.md). */
export function material(title: string, content: string): string {
  return loadPrompt('action-material', { title, content: content.trimEnd() }).trimEnd();
}
