import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { readPaper } from '../reader/read-paper.js';
import { parseBibtex } from './bibtex.js';
import { ExploreInputError } from './explore-input-error.js';

/** One item of related work the researcher gave: what novelty is checked against. */
export interface RelatedItem {
  title: string;
  abstract: string;
  /** Where it came from: the file, and the BibTeX key or line where there is one. */
  source: string;
}

const paperExtensions = new Set(['.pdf', '.tex', '.md', '.markdown', '.txt']);

/**
 * `--related FILE`: a folder of papers (every format codify reads), a BibTeX file (title and
 * abstract of each entry), or a text list: one item per block of lines separated by blank
 * lines, the first line its title and the rest its abstract.
 */
export async function readRelatedWork(path: string): Promise<RelatedItem[]> {
  let info;
  try {
    info = statSync(path);
  } catch {
    throw new ExploreInputError(`--related: ${path} does not exist; give a file or a folder`);
  }
  const items = info.isDirectory()
    ? await readFolder(path)
    : extname(path).toLowerCase() === '.bib'
      ? fromBibtex(readFileSync(path, 'utf8'), path)
      : fromList(readFileSync(path, 'utf8'), path);
  if (items.length === 0) {
    throw new ExploreInputError(
      `--related: found no related work in ${path}; give a folder of papers, a .bib file, or a list of titles each followed by its abstract, items separated by blank lines`,
    );
  }
  return items;
}

async function readFolder(folder: string): Promise<RelatedItem[]> {
  const items: RelatedItem[] = [];
  for (const name of readdirSync(folder).sort()) {
    if (!paperExtensions.has(extname(name).toLowerCase())) continue;
    const path = join(folder, name);
    if (!statSync(path).isFile()) continue;
    const document = await readPaper(path);
    const abstract =
      document.abstract || document.sections.map((section) => section.text).join('\n\n');
    items.push({ title: document.title || name, abstract: abstract.slice(0, 4000), source: path });
  }
  return items;
}

function fromBibtex(text: string, path: string): RelatedItem[] {
  return parseBibtex(text)
    .filter((entry) => (entry.fields.title ?? '') !== '')
    .map((entry) => ({
      title: entry.fields.title ?? '',
      abstract: entry.fields.abstract ?? '',
      source: `${path}#${entry.key}`,
    }));
}

function fromList(text: string, path: string): RelatedItem[] {
  const items: RelatedItem[] = [];
  const lines = text.split(/\r?\n/);
  let block: { start: number; lines: string[] } | undefined;
  const flush = () => {
    if (block === undefined) return;
    const [first = '', ...rest] = block.lines;
    // List markers and numbering are not part of a title.
    const title = first.replace(/^\s*(?:[-*#]+|\d+[.)])\s*/, '').trim();
    if (title !== '') {
      items.push({ title, abstract: rest.join(' ').trim(), source: `${path}:${block.start}` });
    }
    block = undefined;
  };
  lines.forEach((line, index) => {
    if (line.trim() === '') flush();
    else if (block === undefined) block = { start: index + 1, lines: [line] };
    else block.lines.push(line);
  });
  flush();
  return items;
}
