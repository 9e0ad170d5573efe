import { parse as parseYaml } from 'yaml';
import { DocumentBuilder } from './document-builder.js';
import { displayEquation } from './display-math.js';
import type { PaperDocument, PaperTable } from './document.js';
import { splitAuthors } from './normalize.js';

const headingPattern = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const fencePattern = /^(```+|~~~+)\s*([\w-]*)/;
const tableCaptionPattern = /^[*_]{0,2}Table\s+\d+\s*[.:][*_]{0,2}\s*(.*?)[*_]{0,2}$/i;
const algorithmCaptionPattern = /^[*_]{0,2}Algorithm\s+\d+\s*[.:][*_]{0,2}\s*(.*?)[*_]{0,2}$/i;
const tableSeparatorPattern = /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/;

interface FrontMatter {
  title?: string;
  authors: string[];
  body: string[];
}

function readFrontMatter(lines: string[]): FrontMatter {
  if (lines[0]?.trim() !== '---') return { authors: [], body: lines };
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) return { authors: [], body: lines };
  const data: unknown = parseYaml(lines.slice(1, end).join('\n'));
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const title = typeof record.title === 'string' ? record.title : undefined;
  const rawAuthors = record.authors ?? record.author;
  const authors = Array.isArray(rawAuthors)
    ? rawAuthors.map(String)
    : typeof rawAuthors === 'string'
      ? splitAuthors(rawAuthors)
      : [];
  return { title, authors, body: lines.slice(end + 1) };
}

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, '|').trim());
}

/** The levels the section headings use, so the shallowest becomes level 1. */
function shallowestSectionLevel(lines: string[], titleTaken: boolean): number {
  let inFence = false;
  let first = !titleTaken;
  let shallowest = 6;
  for (const line of lines) {
    if (fencePattern.test(line)) inFence = !inFence;
    const match = inFence ? null : headingPattern.exec(line);
    if (!match?.[1]) continue;
    if (first && match[1].length === 1) {
      first = false;
      continue;
    }
    first = false;
    shallowest = Math.min(shallowest, match[1].length);
  }
  return shallowest;
}

const displayStart =
  /^(\$\$|\\\[|\\begin\{(equation|align|alignat|flalign|eqnarray|gather|multline|displaymath)\*?\})/;

/**
 * A Markdown paper read line by line: the cursor, the paragraph being gathered and a table
 * that may still get its caption from the paragraph after it.
 */
class MarkdownReader {
  private readonly builder = new DocumentBuilder();
  private readonly lines: string[];
  private readonly offset: number;
  private titleTaken: boolean;
  private seenHeading = false;
  private paragraph: string[] = [];
  private pendingTable: PaperTable | undefined;
  private index = 0;

  constructor(source: string) {
    const front = readFrontMatter(source.replace(/\r\n?/g, '\n').split('\n'));
    this.lines = front.body;
    this.builder.authors = front.authors;
    this.titleTaken = front.title !== undefined;
    if (front.title !== undefined) this.builder.title = front.title;
    this.offset = shallowestSectionLevel(this.lines, this.titleTaken) - 1;
  }

  read(path: string): PaperDocument {
    while (this.index < this.lines.length) {
      const line = this.lines[this.index] ?? '';
      this.index += 1;
      const trimmed = line.trim();
      if (
        this.fence(trimmed) ||
        this.heading(line) ||
        this.displayMath(trimmed) ||
        this.pipeTable(trimmed) ||
        this.algorithm(trimmed) ||
        this.blankLine(trimmed)
      )
        continue;
      this.paragraph.push(line);
    }
    this.flush();
    this.closeTable();
    return this.builder.build({ format: 'markdown', path });
  }

  /** The line at the cursor, trimmed ('' past the end). */
  private trimmedAt(index: number): string {
    return (this.lines[index] ?? '').trim();
  }

  /** A fenced block: an algorithm when so marked or captioned, otherwise kept as code. */
  private fence(trimmed: string): boolean {
    const fence = fencePattern.exec(trimmed);
    if (!fence?.[1]) return false;
    this.flush();
    this.closeTable();
    const marker = fence[1];
    const body: string[] = [];
    while (this.index < this.lines.length && !this.trimmedAt(this.index).startsWith(marker)) {
      body.push(this.lines[this.index] ?? '');
      this.index += 1;
    }
    this.index += 1;
    const captionLine = algorithmCaptionPattern.exec(body[0]?.trim() ?? '');
    if (fence[2] === 'algorithm' || captionLine) {
      const steps = captionLine ? body.slice(1) : body;
      this.builder.algorithm({ caption: captionLine?.[1], text: steps.join('\n').trimEnd() });
    } else {
      this.builder.paragraph(`${marker}${fence[2] ?? ''}\n${body.join('\n')}\n${marker}`);
    }
    return true;
  }

  /** A heading; the first level-1 heading before any other is the title. */
  private heading(line: string): boolean {
    const heading = headingPattern.exec(line);
    if (!heading?.[1] || heading[2] === undefined) return false;
    this.flush();
    this.closeTable();
    if (!this.titleTaken && !this.seenHeading && heading[1].length === 1) {
      this.builder.title = heading[2];
      this.titleTaken = true;
      return true;
    }
    this.seenHeading = true;
    this.builder.heading(heading[2], heading[1].length - this.offset);
    return true;
  }

  /** A display equation: `$$`, `\[` or a LaTeX display environment, up to its end. */
  private displayMath(trimmed: string): boolean {
    const display = displayStart.exec(trimmed);
    if (!display?.[1]) return false;
    this.flush();
    this.closeTable();
    const close =
      display[1] === '$$' ? '$$' : display[1] === '\\[' ? '\\]' : `\\end{${display[2] ?? ''}`;
    let body = trimmed.slice(display[1].length);
    while (!body.includes(close) && this.index < this.lines.length) {
      body += `\n${this.lines[this.index] ?? ''}`;
      this.index += 1;
    }
    const end = body.indexOf(close);
    const latex = end >= 0 ? body.slice(0, end) : body;
    this.builder.equation(displayEquation(latex, display[2]));
    return true;
  }

  /** A pipe table; a one-line "Table N:" paragraph just above it is its caption. */
  private pipeTable(trimmed: string): boolean {
    if (!trimmed.startsWith('|')) return false;
    const caption =
      this.paragraph.length === 1 ? tableCaptionPattern.exec(this.paragraph[0] ?? '') : null;
    if (caption) this.paragraph = [];
    this.flush();
    this.closeTable();
    const rows: string[][] = [];
    this.index -= 1;
    while (this.index < this.lines.length && this.trimmedAt(this.index).startsWith('|')) {
      const row = this.trimmedAt(this.index);
      if (!tableSeparatorPattern.test(row)) rows.push(splitRow(row));
      this.index += 1;
    }
    this.pendingTable = { caption: caption?.[1], rows };
    if (this.pendingTable.caption !== undefined) this.closeTable();
    return true;
  }

  /** An "Algorithm N:" line starting a block: its steps run to the next blank line. */
  private algorithm(trimmed: string): boolean {
    const algorithmCaption = algorithmCaptionPattern.exec(trimmed);
    if (!algorithmCaption || this.paragraph.length > 0) return false;
    this.closeTable();
    const steps: string[] = [];
    while (this.index < this.lines.length && this.trimmedAt(this.index).length > 0) {
      steps.push(this.lines[this.index] ?? '');
      this.index += 1;
    }
    this.builder.algorithm({ caption: algorithmCaption[1], text: steps.join('\n').trimEnd() });
    return true;
  }

  /** A blank line ends the paragraph, unless it is a table caption waiting for its table. */
  private blankLine(trimmed: string): boolean {
    if (trimmed.length > 0) return false;
    if (this.paragraph.length === 1 && tableCaptionPattern.test(this.paragraph[0]?.trim() ?? '')) {
      const next = this.lines.slice(this.index).find((candidate) => candidate.trim().length > 0);
      if (next?.trim().startsWith('|')) return true;
    }
    this.flush();
    if (this.pendingTable && !tableCaptionPattern.test(this.trimmedAt(this.index)))
      this.closeTable();
    return true;
  }

  /** Ends the paragraph: a caption for the table above it, the authors' line, or text. */
  private flush(): void {
    if (this.paragraph.length === 0) return;
    const text = this.paragraph.join('\n');
    this.paragraph = [];
    const caption = tableCaptionPattern.exec(text);
    if (this.pendingTable && caption && !text.includes('\n')) {
      this.pendingTable.caption = caption[1];
      return;
    }
    if (
      !this.seenHeading &&
      this.titleTaken &&
      this.builder.authors.length === 0 &&
      text.length < 300 &&
      !/^\W*abstract/i.test(text)
    ) {
      this.builder.authors = splitAuthors(text);
      return;
    }
    this.builder.paragraph(text);
  }

  private closeTable(): void {
    if (this.pendingTable) this.builder.table(this.pendingTable);
    this.pendingTable = undefined;
  }
}

/** Reads a Markdown paper: `#` title, headings, `$$`/`\[` equations, pipe tables, algorithms. */
export function readMarkdown(source: string, path: string): PaperDocument {
  return new MarkdownReader(source).read(path);
}
