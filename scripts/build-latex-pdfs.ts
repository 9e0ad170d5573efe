// Builds test/fixtures/pdflatex/<name>.pdf from each paper.tex with pdflatex, reproducibly:
// the example papers (examples/papers/<name>/paper.tex) and the harder fixtures written for
// the PDF reader (test/fixtures/papers/<name>/paper.tex).
// Run: node --import tsx scripts/build-latex-pdfs.ts [--check]
// With --check it writes nothing and fails when a committed PDF differs from the build.
// The tests never run TeX: they read the committed PDFs. Without pdflatex this script says
// so and exits 0 (nothing to check); install TeX Live (texlive-latex-extra,
// texlive-science) to rebuild. A paper set in bitmap fonts (accents-t1: T1 with cm-super's
// outlines unmapped) has METAFONT draw them on the first build, which takes a while once.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../', import.meta.url));
const sourceFolders = ['examples/papers', 'test/fixtures/papers'];
const target = join(root, 'test/fixtures/pdflatex');
const check = process.argv.includes('--check');
// A fixed date (2026-01-01) for the PDF's dates; no trailer ID and no pdfTeX banner, so the
// same TeX Live gives the same bytes on every run and machine.
const environment = { ...process.env, SOURCE_DATE_EPOCH: '1767225600', FORCE_SOURCE_DATE: '1' };
const preamble = '\\pdftrailerid{}\\pdfsuppressptexinfo=-1\\input{paper.tex}';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function papers(): Promise<{ name: string; folder: string }[]> {
  const found: { name: string; folder: string }[] = [];
  for (const parent of sourceFolders) {
    const names = await readdir(join(root, parent)).catch(() => []);
    for (const name of names.sort()) {
      const folder = join(root, parent, name);
      if (await exists(join(folder, 'paper.tex'))) found.push({ name, folder });
    }
  }
  return found;
}

/** Compiles a copy of the paper's folder (twice, so references resolve) and returns the PDF. */
async function compile(folder: string): Promise<Buffer> {
  const work = await mkdtemp(join(tmpdir(), 'codify-pdflatex-'));
  try {
    await cp(folder, work, { recursive: true });
    for (let pass = 0; pass < 2; pass += 1) {
      await run(
        'pdflatex',
        ['-interaction=nonstopmode', '-halt-on-error', '-jobname=paper', preamble],
        { cwd: work, env: environment, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: unknown) => {
        const log = error instanceof Error && 'stdout' in error ? String(error.stdout) : '';
        throw new Error(`pdflatex failed on ${folder}/paper.tex:\n${log.slice(-2000)}`);
      });
    }
    return await readFile(join(work, 'paper.pdf'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const available = await run('pdflatex', ['--version']).then(
  () => true,
  () => false,
);
if (!available) {
  console.log(
    'pdflatex is not installed: nothing built or checked. Install TeX Live (e.g. apt-get install texlive-latex-extra texlive-science) to rebuild the fixtures.',
  );
} else {
  let stale = 0;
  for (const { name, folder } of await papers()) {
    const pdf = await compile(folder);
    const path = join(target, `${name}.pdf`);
    if (check) {
      const current = await readFile(path).catch(() => Buffer.alloc(0));
      const same = current.equals(pdf);
      if (!same) stale += 1;
      console.log(`${same ? 'up to date' : 'STALE'}  ${path}`);
    } else {
      await writeFile(path, pdf);
      console.log(`wrote ${path} (${pdf.length} bytes)`);
    }
  }
  if (stale > 0) {
    console.error(`${stale} PDF(s) differ from their paper.tex; run without --check to rebuild.`);
    process.exitCode = 1;
  }
}
