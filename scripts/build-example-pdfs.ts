// Builds examples/papers/<name>/paper.pdf from paper.md with pdfkit, reproducibly.
// Run: node --import tsx scripts/build-example-pdfs.ts [--check]
// With --check it writes nothing and fails when a committed PDF differs from the build.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownPaperToPdf } from '../src/reader/markdown-to-pdf.js';

const papers = fileURLToPath(new URL('../examples/papers/', import.meta.url));
const check = process.argv.includes('--check');

let stale = 0;
for (const name of (await readdir(papers)).sort()) {
  const source = join(papers, name, 'paper.md');
  const markdown = await readFile(source, 'utf8').catch(() => undefined);
  if (markdown === undefined) continue;
  const pdf = await markdownPaperToPdf(markdown, source);
  const target = join(papers, name, 'paper.pdf');
  if (check) {
    const current = await readFile(target).catch(() => Buffer.alloc(0));
    const same = current.equals(pdf);
    if (!same) stale += 1;
    console.log(`${same ? 'up to date' : 'STALE'}  ${target}`);
  } else {
    await writeFile(target, pdf);
    console.log(`wrote ${target} (${pdf.length} bytes)`);
  }
}
if (stale > 0) {
  console.error(`${stale} PDF(s) differ from their paper.md; run without --check to rebuild.`);
  process.exitCode = 1;
}
