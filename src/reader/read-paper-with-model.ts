import { UsageError } from '../errors/codify-error.js';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { ChatMessage, ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import type { CodifyEventBody } from '../runs/events.js';
import type { PaperDocument } from './document.js';
import { PaperError } from './paper-error.js';
import { modelPdfReaderProblem } from './paper-reader.js';
import { readMarkdown } from './read-markdown.js';

const headingLine = /^#{1,6}\s+\S/m;

/** Why a transcription cannot be used, or undefined when it looks like the paper in Markdown. */
export function transcriptionProblem(markdown: string): string | undefined {
  if (markdown.trim() === '') return 'it is empty.';
  if (!headingLine.test(markdown)) {
    return 'it has no Markdown headings (the title as `#`, the sections as `##`).';
  }
  const words = markdown.split(/\s+/).filter((word) => /\w/.test(word)).length;
  if (words < 50) return `it holds only ${words} words, not a whole paper.`;
  return undefined;
}

/** The answer without a ```markdown fence around all of it, which models often add. */
export function unfence(answer: string): string {
  const match = /^\s*(```+|~~~+)(?:markdown|md)?\s*\n([\s\S]*?)\n\1\s*$/i.exec(answer);
  return match?.[2] ?? answer.trim();
}

/** True when the file is a PDF, by its first bytes or its extension. */
async function isPdf(path: string): Promise<boolean> {
  const bytes = await readFile(path);
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-' || extname(path) === '.pdf';
}

/**
 * Throws (PaperError for a missing path, UsageError otherwise) when `--paper-reader model` cannot apply: the path is missing, is not a
 * PDF (LaTeX and Markdown are read exactly by codify, so a model adds only cost), or the
 * planner's provider cannot read PDFs.
 */
export async function checkModelPdfReading(
  path: string,
  plannerSpec: string | undefined,
): Promise<void> {
  await checkPdfForModelReader(path);
  const problem = modelPdfReaderProblem(plannerSpec);
  // A flag that does not fit the provider is a usage error, not a problem of the paper.
  if (problem !== undefined) throw new UsageError(problem);
}

/** Throws PaperError unless the path is a PDF file, the only input a model reader is for. */
export async function checkPdfForModelReader(path: string): Promise<void> {
  let file = false;
  try {
    file = (await stat(path)).isFile();
  } catch {
    throw new PaperError('missing', path, `Paper not found: ${path}. Check the path.`);
  }
  if (!file || !(await isPdf(path))) {
    throw new UsageError(
      `--paper-reader model reads PDFs only, and ${path} is not a PDF: codify reads LaTeX, Markdown and text exactly itself. Drop --paper-reader model (or give the paper's PDF).`,
    );
  }
}

export interface ModelReadOptions {
  emit?: (event: CodifyEventBody) => void;
  signal?: AbortSignal;
}

/**
 * `--paper-reader model`: sends the PDF to the planner as a file part, asks for the paper as
 * Markdown with LaTeX math, and reads that with the Markdown reader. An unusable answer is
 * re-asked once (with the reason); a second one is a PaperError.
 */
export async function readPaperWithModel(
  path: string,
  models: ModelCaller,
  options: ModelReadOptions = {},
): Promise<PaperDocument> {
  await checkModelPdfReading(path, models.spec('planner'));
  const filename = basename(path);
  const data = new Uint8Array(await readFile(path));
  const messages: ChatMessage[] = [
    {
      role: 'user',
      content: loadPrompt('paper-read-pdf', { filename }),
      files: [{ mediaType: 'application/pdf', data, filename }],
    },
  ];
  const expect = 'The whole paper as Markdown: # title, ## sections, math as $…$ and $$ blocks.';
  for (let attempt = 1; ; attempt += 1) {
    const answer = await models.call({
      role: 'planner',
      messages,
      label: attempt === 1 ? `read ${filename}` : `read ${filename} again`,
      expect,
      temperature: 0,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const markdown = unfence(answer.text);
    const problem = transcriptionProblem(markdown);
    if (problem === undefined) {
      const document = {
        ...readMarkdown(markdown, path),
        source: { format: 'pdf' as const, path },
      };
      options.emit?.({
        type: 'paper-read',
        path,
        model: answer.model,
        attempts: attempt,
        sections: document.sections.length,
        equations: document.sections.reduce((sum, section) => sum + section.equations.length, 0),
        characters: markdown.length,
      });
      return document;
    }
    if (attempt === 2) {
      throw new PaperError(
        'unreadable',
        path,
        `--paper-reader model: ${answer.model} did not transcribe ${path} twice (the last answer: ${problem}) Read it with --paper-reader local, or try another planner model.`,
      );
    }
    messages.push(
      { role: 'assistant', content: answer.text },
      // The file stays on the first message; the re-ask says what was wrong.
      { role: 'user', content: loadPrompt('paper-read-pdf-retry', { problem }) },
    );
  }
}
