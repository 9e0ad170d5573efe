import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { PaperDocument, PaperFormat } from './document.js';
import { PaperError } from './paper-error.js';
import { findMainTex } from './find-main-tex.js';
import { readLatex } from './read-latex.js';
import { readMarkdown } from './read-markdown.js';
import { readPdf } from './read-pdf.js';
import { readText } from './read-text.js';

const supported =
  'PDF (.pdf), LaTeX (.tex, or a folder holding the main .tex), Markdown (.md, .markdown), plain text (.txt)';

const formatsByExtension: Record<string, PaperFormat> = {
  '.pdf': 'pdf',
  '.tex': 'latex',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
};

/** Guesses the format of a file whose extension says nothing, from its first bytes. */
function sniff(bytes: Buffer): PaperFormat | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return undefined;
  const text = head.toString('utf8');
  if (/\\documentclass|\\begin\{document\}|\\section\{/.test(text)) return 'latex';
  if (/^#{1,3}\s+\S/m.test(text)) return 'markdown';
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Reads a paper in any supported format into one document. User mistakes throw PaperError. */
export async function readPaper(path: string): Promise<PaperDocument> {
  if (!(await exists(path))) {
    throw new PaperError('missing', path, `Paper not found: ${path}. Check the path.`);
  }
  const info = await stat(path);
  if (info.isDirectory()) return readLatex(await findMainTex(path));
  const bytes = await readFile(path);
  if (bytes.toString('utf8').trim().length === 0) {
    throw new PaperError(
      'empty',
      path,
      `The paper ${path} is empty. Give a file with the paper's text.`,
    );
  }
  const format = formatsByExtension[extname(path).toLowerCase()] ?? sniff(bytes);
  switch (format) {
    case 'markdown':
      return readMarkdown(bytes.toString('utf8'), path);
    case 'latex':
      return readLatex(path);
    case 'pdf':
      return readPdf(new Uint8Array(bytes), path);
    case 'text':
      return readText(bytes.toString('utf8'), path);
    default:
      throw new PaperError(
        'unknown-format',
        path,
        `Cannot tell the format of ${path}. Supported: ${supported}.`,
      );
  }
}
