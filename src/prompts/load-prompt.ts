import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's prompts/ folder; works from src/ (tsx, vitest) and dist/ alike. */
export const promptsDirectory = fileURLToPath(new URL('../../prompts/', import.meta.url));

const cache = new Map<string, string>();

function template(name: string): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const text = readFileSync(`${promptsDirectory}${name}.md`, 'utf8');
  cache.set(name, text);
  return text;
}

/**
 * Fills every `{{slot}}` of a prompt's text. A slot the template names but the caller did not
 * give is a programming error, so it throws; extra slots are ignored.
 */
export function fillTemplate(
  text: string,
  name: string,
  slots: Record<string, string> = {},
): string {
  return text.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_match, slot: string) => {
    const value = slots[slot];
    if (value === undefined) throw new Error(`prompts/${name}.md needs the slot {{${slot}}}`);
    return value;
  });
}

/** Reads prompts/<name>.md and fills its slots (see fillTemplate). */
export function loadPrompt(name: string, slots: Record<string, string> = {}): string {
  return fillTemplate(template(name), name, slots);
}
