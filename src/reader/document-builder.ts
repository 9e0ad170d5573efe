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

/** A place between two blocks of a section, kept right as blocks go in before it. */
export interface BlockAnchor {
  section: number;
  part: number;
  tables: number;
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
  private readonly anchors: BlockAnchor[] = [];

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
    const table = tableOf(found);
    open.section.tables.push(table);
    open.parts.push(renderTable(table));
  }

  /** The place after the last block (none before the first heading). */
  anchor(): BlockAnchor | undefined {
    const open = this.sections.at(-1);
    if (open === undefined) return undefined;
    const anchor = {
      section: this.sections.length - 1,
      part: open.parts.length,
      tables: open.section.tables.length,
    };
    this.anchors.push(anchor);
    return anchor;
  }

  /** A table put in at an anchor: a float read after the paragraph that it follows. */
  tableAt(anchor: BlockAnchor, found: PaperTable): void {
    const open = this.sections[anchor.section];
    if (open === undefined) return this.table(found);
    const table = tableOf(found);
    open.section.tables.splice(anchor.tables, 0, table);
    this.insert(anchor, renderTable(table), 1);
  }

  /** A paragraph put in at an anchor (a figure's caption read after its place). */
  paragraphAt(anchor: BlockAnchor, text: string): void {
    const trimmed = text.trim();
    if (this.sections[anchor.section] === undefined) return this.paragraph(trimmed);
    if (trimmed.length > 0) this.insert(anchor, trimmed, 0);
  }

  /**
   * Puts a rendered block in at an anchor. Places at or after it move down by the block
   * (this one too: a second block put here goes after the first).
   */
  private insert(anchor: BlockAnchor, part: string, tables: number): void {
    this.sections[anchor.section]?.parts.splice(anchor.part, 0, part);
    for (const other of this.anchors) {
      if (other.section !== anchor.section || other.part < anchor.part) continue;
      other.part += 1;
      other.tables += tables;
    }
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

/** A table as documents hold it: caption without its final period, raw text if any. */
function tableOf(found: PaperTable): PaperTable {
  const caption = normalizeCaption(found.caption);
  const table: PaperTable =
    caption === undefined ? { rows: found.rows } : { caption, rows: found.rows };
  if (found.raw !== undefined) table.raw = found.raw;
  return table;
}
