import type {
  PaperAlgorithm,
  PaperDocument,
  PaperSection,
  PaperTable,
  PaperSource,
} from './document.js';
import { emptySection } from './document.js';
import {
  isAbstractHeading,
  isReferencesHeading,
  normalizeCaption,
  normalizeWhitespace,
  stripHeadingNumber,
} from './normalize.js';
import { renderAlgorithm, renderEquation, renderTable } from './render-blocks.js';

interface OpenSection {
  section: PaperSection;
  parts: string[];
}

/**
 * Collects a paper's blocks in reading order, whichever reader found them, and builds the
 * document: numbering stripped from headings, the abstract taken from its section, the
 * references section (and its subsections) dropped.
 */
export class DocumentBuilder {
  title = '';
  authors: string[] = [];
  abstract = '';
  private readonly preamble: string[] = [];
  private readonly sections: OpenSection[] = [];

  heading(text: string, level: number): void {
    const heading = stripHeadingNumber(text);
    if (heading.length === 0) return;
    this.sections.push({
      section: emptySection(heading, Math.min(Math.max(level, 1), 3)),
      parts: [],
    });
  }

  paragraph(text: string): void {
    const trimmed = text.trim();
    if (trimmed.length === 0) return;
    const open = this.sections.at(-1);
    if (open) open.parts.push(trimmed);
    else this.preamble.push(trimmed);
  }

  equation(latex: string): void {
    const equation = normalizeWhitespace(latex);
    if (equation.length === 0) return;
    const open = this.current();
    open.section.equations.push(equation);
    open.parts.push(renderEquation(equation));
  }

  table(found: PaperTable): void {
    const open = this.current();
    const caption = normalizeCaption(found.caption);
    const table: PaperTable =
      caption === undefined ? { rows: found.rows } : { caption, rows: found.rows };
    if (found.raw !== undefined) table.raw = found.raw;
    open.section.tables.push(table);
    open.parts.push(renderTable(table));
  }

  algorithm(found: PaperAlgorithm): void {
    const open = this.current();
    const caption = normalizeCaption(found.caption);
    const algorithm: PaperAlgorithm =
      caption === undefined ? { text: found.text } : { caption, text: found.text };
    open.section.algorithms.push(algorithm);
    open.parts.push(renderAlgorithm(algorithm));
  }

  build(source: PaperSource): PaperDocument {
    let abstract = normalizeWhitespace(this.abstract);
    const sections: PaperSection[] = [];
    let droppingBelow: number | undefined;
    for (const { section, parts } of this.sections) {
      if (droppingBelow !== undefined && section.level > droppingBelow) continue;
      droppingBelow = undefined;
      if (isReferencesHeading(section.heading)) {
        droppingBelow = section.level;
        continue;
      }
      const text = parts.join('\n\n');
      if (isAbstractHeading(section.heading) && abstract.length === 0) {
        abstract = text;
        continue;
      }
      sections.push({ ...section, text });
    }
    if (abstract.length === 0 && this.preamble.length > 0) {
      abstract = this.preamble.join('\n\n').replace(/^\W*abstract\W*\s*/i, '');
    }
    return {
      title: normalizeWhitespace(this.title),
      authors: this.authors,
      abstract,
      sections,
      source,
    };
  }

  /** Equations, tables and algorithms before any heading go to an untitled first section. */
  private current(): OpenSection {
    const open = this.sections.at(-1);
    if (open) return open;
    const created = { section: emptySection('Preamble', 1), parts: [] };
    this.sections.push(created);
    return created;
  }
}
