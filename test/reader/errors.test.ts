import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PaperError } from '../../src/reader/paper-error.js';
import { readPaper } from '../../src/reader/read-paper.js';

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'codify-paper-errors-'));
}

async function failure(path: string): Promise<PaperError> {
  const error: unknown = await readPaper(path).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof PaperError)) throw new Error(`expected a PaperError for ${path}`);
  return error;
}

describe('readPaper errors', () => {
  it('names a missing file', async () => {
    const path = join(await folder(), 'nowhere.md');
    const error = await failure(path);
    expect(error.code).toBe('missing');
    expect(error.message).toContain(path);
  });

  it('rejects an empty file', async () => {
    const path = join(await folder(), 'empty.md');
    await writeFile(path, '  \n\n');
    const error = await failure(path);
    expect(error.code).toBe('empty');
    expect(error.message).toContain('empty');
  });

  it('names the supported formats for an unknown one', async () => {
    const path = join(await folder(), 'paper.docx');
    await writeFile(path, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]));
    const error = await failure(path);
    expect(error.code).toBe('unknown-format');
    expect(error.message).toContain('.pdf');
    expect(error.message).toContain('.tex');
    expect(error.message).toContain('.md');
    expect(error.message).toContain('.txt');
  });

  it('recognizes Markdown by its content when the extension says nothing', async () => {
    const path = join(await folder(), 'paper');
    await writeFile(path, '# Sniffed\n\n## Method\n\nText.\n');
    const document = await readPaper(path);
    expect(document.source.format).toBe('markdown');
    expect(document.title).toBe('Sniffed');
  });
});
