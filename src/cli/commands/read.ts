import type { Command } from 'commander';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { addModelOptions, jsonOption, paperReaderOption } from '../options.js';
import { modelsForCommand } from '../../llm/caller-for-command.js';
import { CodifyError } from '../../errors/codify-error.js';
import { exitCodes } from '../../errors/exit-codes.js';
import { readPaper, renderDocument, type PaperDocument } from '../../reader/index.js';
import type { PaperReader } from '../../reader/paper-reader.js';
import {
  checkModelPdfReading,
  checkPdfForModelReader,
  readPaperWithModel,
} from '../../reader/read-paper-with-model.js';

export interface ReadCommandOptions {
  json?: boolean;
  paperReader?: PaperReader;
  /** Model flags (--model, --planner, --config, --record …) for --paper-reader model. */
  [flag: string]: unknown;
}

/** What `codify read` prints, and its exit code: 0, or 2 for a paper it cannot read. */
export interface ReadCommandResult {
  out: string;
  err: string;
  exitCode: number;
}

function fileErrorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

const money = (cost: number): string => `$${cost.toFixed(4)}`;

/** `--paper-reader model`: the planner reads the PDF; returns the document and a cost line. */
async function readWithModel(
  paper: string,
  options: ReadCommandOptions,
): Promise<{ document: PaperDocument; note: string }> {
  // The input is checked first: a .tex given by mistake needs no API key to be refused.
  await checkPdfForModelReader(paper);
  const { config, caller } = modelsForCommand(modelFlagsFrom(options));
  await checkModelPdfReading(paper, config.roles.planner.models[0]);
  const document = await readPaperWithModel(paper, caller);
  const totals = caller.totals();
  const cost = totals.unpricedCalls > 0 ? 'unknown' : money(totals.costUsd);
  const note = `codify read: ${paper} read by ${caller.spec('planner')} in ${totals.calls} call(s): ${totals.inputTokens} tokens in, ${totals.outputTokens} out, cost ${cost}\n`;
  return { document, note };
}

/**
 * Reads a paper the way `codify paper` does and returns what codify extracted: the
 * Markdown the prompts see (display equations as `$$ … $$`), or the document model as JSON.
 */
export async function readCommandOutput(
  paper: string,
  options: ReadCommandOptions,
): Promise<ReadCommandResult> {
  try {
    const { document, note } =
      options.paperReader === 'model'
        ? await readWithModel(paper, options)
        : { document: await readPaper(paper), note: '' };
    const out =
      options.json === true ? `${JSON.stringify(document, null, 2)}\n` : renderDocument(document);
    return { out, err: note, exitCode: 0 };
  } catch (error) {
    if (error instanceof CodifyError) {
      return { out: '', err: `codify read: ${error.message}\n`, exitCode: error.exitCode };
    }
    // A file the system will not let us read (permissions, a special file) is the user's to fix.
    const code = fileErrorCode(error);
    if (code !== undefined && error instanceof Error) {
      return {
        out: '',
        err: `codify read: cannot read the paper ${paper} (${code}: ${error.message}). Check the path and its permissions.\n`,
        exitCode: exitCodes.input,
      };
    }
    throw error;
  }
}

export function registerReadCommand(program: Command): void {
  const command = program
    .command('read')
    .description(
      'print the paper as codify reads it (Markdown with $$ equations, or --json), to check the extraction before a run',
    )
    .argument('<paper>', 'the paper: .pdf, .tex (or a folder with a main .tex), .md or .txt')
    .addOption(jsonOption('the document model (title, authors, abstract, sections) as JSON'))
    .addOption(paperReaderOption());
  addModelOptions(command).action(async (paper: string, options: ReadCommandOptions) => {
    const result = await readCommandOutput(paper, options);
    process.stdout.write(result.out);
    process.stderr.write(result.err);
    process.exitCode = result.exitCode;
  });
}
