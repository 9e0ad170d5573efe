import { readMarkdown } from './read-markdown.js';
import { writePaperPdf } from './write-paper-pdf.js';

/** The entries of a Markdown paper's "References" section, one per paragraph. */
export function markdownReferences(markdown: string): string[] {
  const match = /^#{1,3}\s+(?:\d+\.?\s+)?References\s*\n([\s\S]*?)(?=^#{1,3}\s|(?![\s\S]))/m.exec(
    markdown,
  );
  return (match?.[1] ?? '')
    .split(/\n\s*\n/)
    .map((entry) => entry.replace(/\s+/g, ' ').trim())
    .filter((entry) => entry.length > 0);
}

/**
 * A Markdown paper typeset as PDF, references included (the document model drops them;
 * the PDF keeps them, like a real paper). Development use: it needs pdfkit.
 */
export async function markdownPaperToPdf(markdown: string, path: string): Promise<Buffer> {
  return writePaperPdf(readMarkdown(markdown, path), { references: markdownReferences(markdown) });
}
