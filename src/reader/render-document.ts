import type { PaperDocument } from './document.js';

/** The document as Markdown, for prompts: title, authors, abstract, then every section. */
export function renderDocument(document: PaperDocument): string {
  const parts: string[] = [`# ${document.title || 'Untitled paper'}`];
  if (document.authors.length > 0) parts.push(`Authors: ${document.authors.join(', ')}`);
  if (document.abstract.length > 0) parts.push(`## Abstract\n\n${document.abstract}`);
  for (const section of document.sections) {
    const hashes = '#'.repeat(Math.min(section.level + 1, 4));
    parts.push(
      section.text.length > 0
        ? `${hashes} ${section.heading}\n\n${section.text}`
        : `${hashes} ${section.heading}`,
    );
  }
  return `${parts.join('\n\n')}\n`;
}
