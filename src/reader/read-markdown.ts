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

/** Reads a Markdown paper: `#` title, headings, `$$`/`\[` equations, pipe tables, algorithms. */
export function readMarkdown(source: string, path: string): PaperDocument {
  const front = readFrontMatter(source.replace(/\r\n?/g, '\n').split('\n'));
  const lines = front.body;
  const builder = new DocumentBuilder();
  builder.authors = front.authors;
  let titleTaken = front.title !== undefined;
  if (front.title !== undefined) builder.title = front.title;
  const offset = shallowestSectionLevel(lines, titleTaken) - 1;
  let seenHeading = false;
  let paragraph: string[] = [];
  let pendingTable: PaperTable | undefined;

  const flush = (): void => {
    if (paragraph.length === 0) return;
    const text = paragraph.join('\n');
    paragraph = [];
    const caption = tableCaptionPattern.exec(text);
    if (pendingTable && caption && !text.includes('\n')) {
      pendingTable.caption = caption[1];
      return;
    }
    if (
      !seenHeading &&
      titleTaken &&
      builder.authors.length === 0 &&
      text.length < 300 &&
      !/^\W*abstract/i.test(text)
    ) {
      builder.authors = splitAuthors(text);
      return;
    }
    builder.paragraph(text);
  };
  const closeTable = (): void => {
    if (pendingTable) builder.table(pendingTable);
    pendingTable = undefined;
  };

  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const trimmed = line.trim();
    index += 1;

    const fence = fencePattern.exec(trimmed);
    if (fence?.[1]) {
      flush();
      closeTable();
      const marker = fence[1];
      const body: string[] = [];
      while (index < lines.length && !(lines[index] ?? '').trim().startsWith(marker)) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      index += 1;
      const captionLine = algorithmCaptionPattern.exec(body[0]?.trim() ?? '');
      if (fence[2] === 'algorithm' || captionLine) {
        const steps = captionLine ? body.slice(1) : body;
        builder.algorithm({ caption: captionLine?.[1], text: steps.join('\n').trimEnd() });
      } else {
        builder.paragraph(`${marker}${fence[2] ?? ''}\n${body.join('\n')}\n${marker}`);
      }
      continue;
    }

    const heading = headingPattern.exec(line);
    if (heading?.[1] && heading[2] !== undefined) {
      flush();
      closeTable();
      if (!titleTaken && !seenHeading && heading[1].length === 1) {
        builder.title = heading[2];
        titleTaken = true;
        continue;
      }
      seenHeading = true;
      builder.heading(heading[2], heading[1].length - offset);
      continue;
    }

    const display =
      /^(\$\$|\\\[|\\begin\{(equation|align|alignat|flalign|eqnarray|gather|multline|displaymath)\*?\})/.exec(
        trimmed,
      );
    if (display?.[1]) {
      flush();
      closeTable();
      const close =
        display[1] === '$$' ? '$$' : display[1] === '\\[' ? '\\]' : `\\end{${display[2] ?? ''}`;
      let body = trimmed.slice(display[1].length);
      while (!body.includes(close) && index < lines.length) {
        body += `\n${lines[index] ?? ''}`;
        index += 1;
      }
      const end = body.indexOf(close);
      const latex = end >= 0 ? body.slice(0, end) : body;
      builder.equation(displayEquation(latex, display[2]));
      continue;
    }

    if (trimmed.startsWith('|')) {
      const caption = paragraph.length === 1 ? tableCaptionPattern.exec(paragraph[0] ?? '') : null;
      if (caption) paragraph = [];
      flush();
      closeTable();
      const rows: string[][] = [];
      index -= 1;
      while (index < lines.length && (lines[index] ?? '').trim().startsWith('|')) {
        const row = (lines[index] ?? '').trim();
        if (!tableSeparatorPattern.test(row)) rows.push(splitRow(row));
        index += 1;
      }
      pendingTable = { caption: caption?.[1], rows };
      if (pendingTable.caption !== undefined) closeTable();
      continue;
    }

    const algorithmCaption = algorithmCaptionPattern.exec(trimmed);
    if (algorithmCaption && paragraph.length === 0) {
      closeTable();
      const steps: string[] = [];
      while (index < lines.length && (lines[index] ?? '').trim().length > 0) {
        steps.push(lines[index] ?? '');
        index += 1;
      }
      builder.algorithm({ caption: algorithmCaption[1], text: steps.join('\n').trimEnd() });
      continue;
    }

    if (trimmed.length === 0) {
      if (paragraph.length === 1 && tableCaptionPattern.test(paragraph[0]?.trim() ?? '')) {
        const next = lines.slice(index).find((candidate) => candidate.trim().length > 0);
        if (next?.trim().startsWith('|')) continue;
      }
      flush();
      if (pendingTable && !tableCaptionPattern.test((lines[index] ?? '').trim())) closeTable();
      continue;
    }
    paragraph.push(line);
  }
  flush();
  closeTable();
  return builder.build({ format: 'markdown', path });
}
