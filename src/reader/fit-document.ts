import type { PaperDocument, PaperSection } from './document.js';
import { renderDocument } from './render-document.js';
import { renderEquation } from './render-blocks.js';

/** Summarizes one section's text; the LLM layer provides it (e.g. the summarizer role). */
export type Summarize = (text: string, heading: string) => Promise<string>;

export interface FitOptions {
  /** The most characters the prompt view may have. */
  maxChars: number;
  summarize: Summarize;
}

export interface FittedDocument {
  /** The view for prompts: the full text when it fits, otherwise with sections summarized. */
  text: string;
  /** The full rendered text, for stages that need every word (e.g. checking quotes). */
  fullText: string;
  /** Headings of the sections replaced by summaries, in document order. */
  summarized: string[];
  /** True when even the summaries did not fit and the view was cut at maxChars. */
  truncated: boolean;
  document: PaperDocument;
}

function summarizedSection(section: PaperSection, summary: string): PaperSection {
  const equations = section.equations.map(renderEquation);
  const text = [`(Summary of this section.) ${summary.trim()}`, ...equations].join('\n\n');
  return { ...section, text };
}

/**
 * Fits a paper into maxChars for prompts. Summarizes the longest sections first, one at a
 * time, until the view fits; display equations stay verbatim because code is built from
 * them. Summaries that still do not fit are cut, and the view says so.
 */
export async function fitDocument(
  document: PaperDocument,
  options: FitOptions,
): Promise<FittedDocument> {
  const fullText = renderDocument(document);
  const result = (text: string, summarized: string[], truncated: boolean): FittedDocument => ({
    text,
    fullText,
    summarized,
    truncated,
    document,
  });
  if (fullText.length <= options.maxChars) return result(fullText, [], false);

  const sections = [...document.sections];
  const order = sections
    .map((section, index) => ({ index, length: section.text.length }))
    .sort((first, second) => second.length - first.length);
  const done = new Set<number>();
  let text = fullText;
  for (const { index } of order) {
    if (text.length <= options.maxChars) break;
    const section = sections[index];
    if (section === undefined || section.text.length === 0) continue;
    const summary = await options.summarize(section.text, section.heading);
    sections[index] = summarizedSection(section, summary);
    done.add(index);
    text = renderDocument({ ...document, sections });
  }
  const summarized = sections.filter((_section, index) => done.has(index)).map((s) => s.heading);
  if (text.length <= options.maxChars) return result(text, summarized, false);

  const marker = `\n\n[… cut at ${options.maxChars} characters; the full paper has ${fullText.length}.]\n`;
  const keep = Math.max(0, options.maxChars - marker.length);
  return result(`${text.slice(0, keep)}${marker}`, summarized, true);
}
