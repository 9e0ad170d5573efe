import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PaperDocument } from '../reader/document.js';
import { readPaper } from '../reader/read-paper.js';
import { ExploreInputError } from './explore-input-error.js';
import { readRelatedWork, type RelatedItem } from './related-work.js';

export interface ExploreInputs {
  papers: { id: string; path: string; document: PaperDocument }[];
  notes?: { path: string; text: string };
  related: RelatedItem[];
}

/** How one paper is read: codify's readers by default, the planner with `--paper-reader model`. */
export type ReadDocument = (path: string) => Promise<PaperDocument>;

/** Reads every input before a run exists, so a bad path stops the command with nothing spent. */
export async function readExploreInputs(
  input: {
    paperPaths: readonly string[];
    notesPath?: string;
    relatedPath?: string;
  },
  read: ReadDocument = readPaper,
): Promise<ExploreInputs> {
  if (input.paperPaths.length === 0) {
    throw new ExploreInputError(
      'give at least one paper: codify explore PAPER… (.pdf, .tex, .md, .txt)',
    );
  }
  const papers = [];
  for (const [index, path] of input.paperPaths.entries()) {
    papers.push({ id: `P${index + 1}`, path: resolve(path), document: await read(path) });
  }
  let notes: ExploreInputs['notes'];
  if (input.notesPath !== undefined) {
    const path = resolve(input.notesPath);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new ExploreInputError(
        `--notes: ${input.notesPath} is not a file; give a text file of your notes`,
      );
    }
    const text = readFileSync(path, 'utf8');
    if (text.trim() === '') throw new ExploreInputError(`--notes: ${input.notesPath} is empty`);
    notes = { path, text };
  }
  const related = input.relatedPath === undefined ? [] : await readRelatedWork(input.relatedPath);
  return { papers, related, ...(notes === undefined ? {} : { notes }) };
}
