import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { withVariantsAsChanges } from './config-variants.js';
import type { SourceFile } from './source-file.js';

const skippedFolders = new Set(['.git', '__pycache__', 'outputs', 'runs', 'node_modules', '.venv']);
const maxFileBytes = 200_000;

/**
 * A repository's text files for a judge, smallest paths first; binaries, caches and outputs
 * left out, configuration variants shown as their changes from `config.yaml`.
 */
export function repositoryFiles(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) walk(path);
        continue;
      }
      if (!entry.isFile() || statSync(path).size > maxFileBytes) continue;
      const buffer = readFileSync(path);
      // A NUL byte in the first kilobytes: a binary file, nothing a judge reads.
      if (buffer.subarray(0, 8000).includes(0)) continue;
      files.push({ path: relative(root, path), content: buffer.toString('utf8') });
    }
  };
  walk(root);
  return withVariantsAsChanges(files);
}

/**
 * codify's own planning documents, written into the repository by paper mode (the plan,
 * the design, one analysis per file, the reproduction checklist): they describe the code a judge is asked about, so
 * judging them would grade the plan, not the code. PaperCoder keeps its plans outside the
 * repository it judges.
 */
export function isPlanningDocument(path: string): boolean {
  const normalized = path.replaceAll('\\', '/');
  return (
    normalized === 'docs/plan.md' ||
    normalized === 'docs/design.md' ||
    // the reproduction checklist paper mode plans from the paper: a rubric, not code
    normalized === 'docs/rubric.json' ||
    (normalized.startsWith('docs/analysis/') && normalized.endsWith('.md'))
  );
}

// PaperBench's list of code and configuration suffixes, with the files named by convention.
const codeSuffixes = new Set(
  '.py .r .rmd .m .jl .ipynb .c .h .cpp .hpp .cc .cxx .hxx .cu .java .js .ts .scala .go .rs .sh .bash .config .cfg .json .yaml .yml .toml .ini'.split(
    ' ',
  ),
);
const codeNames = new Set([
  'makefile',
  'dockerfile',
  'requirements.txt',
  'environment.yml',
  'setup.cfg',
]);

/** Code and configuration: what a Code Development requirement is judged on (no prose, no outputs). */
export function isCodeFile(path: string): boolean {
  const name = path.replaceAll('\\', '/').split('/').at(-1)?.toLowerCase() ?? '';
  return (
    codeNames.has(name) ||
    /^requirements[\w.-]*\.txt$/.test(name) ||
    codeSuffixes.has(extname(name))
  );
}
