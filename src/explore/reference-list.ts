import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { findMainTex } from '../reader/find-main-tex.js';
import { readPdfLines } from '../reader/pdf-lines.js';
import type { ComparedWork } from './novelty.js';

/** One entry of a paper's reference list, with the title read out of it. */
export interface ReferenceEntry {
  /** The entry as printed, lines joined. */
  text: string;
  title: string;
}

const referencesHeading =
  /^[ \t]*(?:#{1,4}[ \t]+)?(?:\d+\.?[ \t]+)?(?:references|bibliography|works cited|literature cited)[ \t]*$/im;
/** What ends a reference list: a Markdown heading or an appendix. */
const sectionAfter = /^[ \t]*(?:#{1,4}[ \t]+\S|appendix\b|appendices\b)/im;

/** The reference list's text, from the heading to the next section (or the end). */
export function referencesSection(text: string): string | undefined {
  const heading = referencesHeading.exec(text);
  if (heading === null) return undefined;
  const rest = text.slice(heading.index + heading[0].length);
  const end = sectionAfter.exec(rest);
  return end === null ? rest : rest.slice(0, end.index);
}

const joinLines = (lines: string) =>
  lines
    .replace(/(\w)-\n(\w)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A reference list's entries: split at `[n]` or `n.` markers where the list numbers them,
 * else at blank lines. Lines of nothing but a number are page numbers, not entries.
 */
export function splitReferences(section: string): string[] {
  const lines = section.split(/\r?\n/).filter((line) => !/^\s*\d+\s*$/.test(line));
  const body = lines.join('\n');
  for (const marker of [/^[ \t]*\[\d+\][ \t]*/m, /^[ \t]*\d+\.[ \t]+/m]) {
    const global = new RegExp(marker.source, 'gm');
    if ((body.match(global) ?? []).length === 0) continue;
    return body
      .split(global)
      .slice(1)
      .map(joinLines)
      .filter((entry) => entry !== '');
  }
  return body
    .split(/\n[ \t]*\n/)
    .map(joinLines)
    .filter((entry) => entry.length > 10);
}

/**
 * The title in an entry: a quoted title where there is one (IEEE style), else the sentence
 * after the authors ("A. Name and B. Name. Title. Venue, year."), an initial's full stop
 * not ending a sentence.
 */
export function referenceTitle(entry: string): string {
  const quoted = /[“"]([^”"]{8,})[”"]/.exec(entry);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/[,.]\s*$/, '').trim();
  const sentences: string[] = [];
  let start = 0;
  for (const stop of entry.matchAll(/\.(?:\s+|$)/g)) {
    const before = entry.slice(start, stop.index);
    // "H." and "Y. N." are initials, not the end of the authors, unless a title follows
    // ("Cui, Y., Jia, M. Class-balanced loss …").
    if (/(?:^|[\s.-])[A-Z]$/.test(before) && !titleFollows(entry.slice((stop.index ?? 0) + 1)))
      continue;
    sentences.push(before.trim());
    start = (stop.index ?? 0) + stop[0].length;
  }
  if (start < entry.length) sentences.push(entry.slice(start).trim());
  const [authors = entry, title] = sentences.filter((sentence) => sentence !== '');
  return (title ?? authors).trim();
}

/** Name particles and joiners, lower-case in an author list too. */
const authorWords = new Set(['and', 'et', 'al', 'von', 'van', 'der', 'de', 'la', 'di']);

/** Whether the text up to the next full stop reads as a title: 3 words or more, some lower-case. */
function titleFollows(rest: string): boolean {
  const words = (/^[^.]*/.exec(rest)?.[0] ?? '').trim().split(/\s+/);
  return words.length >= 3 && words.some((word) => /^[a-z]/.test(word) && !authorWords.has(word));
}

/** The text a paper's reference list is read from: the file itself, or a PDF's lines. */
async function rawText(path: string): Promise<string> {
  const info = await stat(path);
  if (info.isDirectory()) return readFile(await findMainTex(path), 'utf8');
  const bytes = await readFile(path);
  if (extname(path).toLowerCase() === '.pdf' || bytes.subarray(0, 5).toString() === '%PDF-') {
    return (await readPdfLines(new Uint8Array(bytes), path)).map((line) => line.text).join('\n');
  }
  return bytes.toString('utf8');
}

/** Entries of a LaTeX bibliography (`\bibitem{key} …`). */
function bibitems(latex: string): string[] {
  const body = /\\begin\{thebibliography\}[\s\S]*?(?=\\end\{thebibliography\}|$)/.exec(latex)?.[0];
  if (body === undefined) return [];
  return body
    .split(/\\bibitem(?:\[[^\]]*\])?\{[^}]*\}/)
    .slice(1)
    .map((entry) =>
      joinLines(
        entry
          .replace(/\\newblock/g, '')
          .replace(/\\[a-zA-Z]+\s*/g, '')
          .replace(/[{}]/g, ''),
      ),
    )
    .filter((entry) => entry !== '');
}

/** The reference list of a paper in any format codify reads (empty when it has none). */
export async function readReferenceList(path: string): Promise<ReferenceEntry[]> {
  const text = await rawText(path);
  const entries = /\\bibitem/.test(text)
    ? bibitems(text)
    : splitReferences(referencesSection(text) ?? '');
  return entries.map((entry) => ({ text: entry, title: referenceTitle(entry) }));
}

/** The input papers' reference lists as works: the title is all a list says of each. */
export async function referenceWorks(
  papers: readonly { id: string; path: string }[],
): Promise<ComparedWork[]> {
  const works: ComparedWork[] = [];
  for (const paper of papers) {
    const entries = await readReferenceList(paper.path).catch(() => []);
    entries.forEach((entry, index) => {
      works.push({ title: entry.title, text: '', source: `${paper.id} reference [${index + 1}]` });
    });
  }
  return works;
}
