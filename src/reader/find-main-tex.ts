import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PaperError } from './paper-error.js';

const preferredNames = ['main.tex', 'paper.tex', 'ms.tex', 'article.tex'];

/**
 * The main .tex file of a LaTeX source folder: the one with `\documentclass`, preferring
 * the usual names when several have it. A PaperError when none or too many qualify.
 */
export async function findMainTex(folder: string): Promise<string> {
  const names = (await readdir(folder))
    .filter((name) => name.toLowerCase().endsWith('.tex'))
    .sort();
  const mains: string[] = [];
  for (const name of names) {
    const text = await readFile(join(folder, name), 'utf8');
    if (/^[^%\n]*\\documentclass/m.test(text)) mains.push(name);
  }
  const preferred = preferredNames.find((name) => mains.includes(name));
  const chosen = preferred ?? (mains.length === 1 ? mains[0] : undefined);
  if (chosen !== undefined) return join(folder, chosen);
  if (mains.length === 0) {
    throw new PaperError(
      'unknown-format',
      folder,
      `${folder} is a folder without a main .tex file (one with \\documentclass). Give the paper's file instead (.pdf, .tex, .md, .txt).`,
    );
  }
  throw new PaperError(
    'unknown-format',
    folder,
    `${folder} has several main .tex files (${mains.join(', ')}). Give the one to read, e.g. ${join(folder, mains[0] ?? '')}.`,
  );
}
