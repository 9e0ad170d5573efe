import { spawn } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCommandOutput } from '../../src/cli/commands/read.js';
import { examplePaperPath } from './example-papers.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

function codify(...args: string[]) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('codify read', () => {
  it('prints the LaTeX paper as Markdown with $$ display equations', async () => {
    const result = await readCommandOutput(examplePaperPath('mixup-tabular', 'paper.tex'), {});
    expect(result.exitCode).toBe(0);
    expect(result.err).toBe('');
    expect(result.out).toMatch(/^# Mixup for Tabular Classification with a Small MLP\n/);
    expect(result.out).toContain('\n$$ z_d = (x_d - m_d) / s_d $$\n');
    expect(result.out).toContain('| Logistic regression | 98.1 +/- 0.7 | 0.06 +/- 0.01 |');
    expect(result.out).not.toContain('NeurIPS');
  });

  it('prints the JSON document model with --json, through the real CLI', async () => {
    const result = await codify('read', examplePaperPath('random-fourier-features'), '--json');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const document = JSON.parse(result.out) as {
      title: string;
      source: { format: string };
      sections: { heading: string; equations: string[] }[];
    };
    expect(document.title).toBe(
      'Random Fourier Features for Kernel Ridge Classification on Digits',
    );
    expect(document.source.format).toBe('latex');
    expect(document.sections.flatMap((section) => section.equations)).toHaveLength(5);
  });

  it('exits 3 naming the file for a missing, unknown-format or unreadable paper', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'codify-read-'));
    const missing = await codify('read', join(folder, 'nope.pdf'));
    expect(missing.code).toBe(3);
    expect(missing.out).toBe('');
    expect(missing.err).toBe(
      `codify read: Paper not found: ${join(folder, 'nope.pdf')}. Check the path.\n`,
    );

    const unknown = join(folder, 'notes.bin');
    await writeFile(unknown, Buffer.from([1, 0, 2, 0, 3]));
    const unknownResult = await readCommandOutput(unknown, {});
    expect(unknownResult.exitCode).toBe(3);
    expect(unknownResult.err).toContain(
      `Cannot tell the format of ${unknown}. Supported: PDF (.pdf)`,
    );

    const broken = join(folder, 'broken.pdf');
    await writeFile(broken, '%PDF-1.7\nthis is not a PDF body');
    const brokenResult = await readCommandOutput(broken, {});
    expect(brokenResult.exitCode).toBe(3);
    expect(brokenResult.err).toContain(broken);

    const locked = join(folder, 'locked.md');
    await writeFile(locked, '# Title\n\nText.\n');
    await chmod(locked, 0o000);
    const lockedResult = await readCommandOutput(locked, {});
    // Root reads any file; elsewhere the permission error is the user's to fix, exit 3.
    if (process.getuid?.() !== 0) {
      expect(lockedResult.exitCode).toBe(3);
      expect(lockedResult.err).toContain(`cannot read the paper ${locked} (EACCES`);
    }
  });
});
