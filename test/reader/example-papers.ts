import { fileURLToPath } from 'node:url';
import type { PaperDocument } from '../../src/reader/document.js';

/** The example papers shipped in examples/papers/, each in Markdown, LaTeX and PDF. */
export const examplePapers = ['mixup-tabular', 'random-fourier-features'] as const;

export function examplePaperPath(name: string, file = ''): string {
  return fileURLToPath(new URL(`../../examples/papers/${name}/${file}`, import.meta.url));
}

/** Headings as compared across formats: lower case, single spaces. */
export function headings(document: PaperDocument): string[] {
  return document.sections.map((section) => section.heading.toLowerCase().replace(/\s+/g, ' '));
}

export function equations(document: PaperDocument): string[] {
  return document.sections.flatMap((section) => section.equations);
}
