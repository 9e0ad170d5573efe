import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';

/** What the prototype's folder and Python source say, read without running anything. */
export interface PrototypeScan {
  /** Every file, relative to the folder, with its size in bytes (hidden and cache folders left out). */
  files: { path: string; bytes: number }[];
  /** Whether the folder holds more files than the listing keeps. */
  truncated: boolean;
  /** Top-level modules the Python files import that are not files of the prototype. */
  imports: string[];
  /** Calls that load data, as written in the source (`load_wine(return_X_y=True)`). */
  loads: string[];
  /** Files that hold data, by their extension. */
  dataFiles: { path: string; bytes: number }[];
}

const skipped = new Set(['.git', '__pycache__', 'runs', 'node_modules', '.venv', 'venv']);
const dataExtensions = new Set([
  '.csv',
  '.tsv',
  '.npy',
  '.npz',
  '.parquet',
  '.feather',
  '.h5',
  '.hdf5',
  '.pkl',
  '.pickle',
  '.pt',
  '.pth',
  '.jsonl',
  '.arff',
  '.zip',
  '.gz',
]);
/** Enough files to describe a prototype; a folder bigger than this is summarized by its first. */
const maxFiles = 200;

function listFiles(root: string, dir = root, found: { path: string; bytes: number }[] = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (found.length >= maxFiles) break;
    if (skipped.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(root, path, found);
    else if (entry.isFile()) found.push({ path: relative(root, path), bytes: statSync(path).size });
  }
  return found;
}

const importPattern =
  /^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w., \t]*))/gm;

/** Modules named by `import a, b.c` and `from a.b import c`, top level only, in order. */
export function importedModules(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(importPattern)) {
    const listed = match[1] ?? match[2] ?? '';
    for (const part of listed.split(',')) {
      const name = part.trim().split(/\s+/)[0]?.split('.')[0] ?? '';
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

// Loader calls: scikit-learn's load_/fetch_/make_, pandas' read_*, numpy's load*, torch.load,
// torchvision datasets, Hugging Face load_dataset, and open() of a named file.
const loadPattern =
  /\b((?:load|fetch|make)_[a-z0-9_]+|read_(?:csv|table|parquet|json|excel|feather|pickle)|np\.load(?:txt)?|numpy\.load(?:txt)?|torch\.load|datasets\.[A-Z][A-Za-z0-9]+|load_dataset|open)\(([^()\n]{0,120}(?:\([^()\n]{0,40}\)[^()\n]{0,60})?)\)/g;

/** Data-loading calls as written, each once, in source order. */
export function dataLoads(source: string): string[] {
  const calls: string[] = [];
  for (const match of source.matchAll(loadPattern)) {
    const [call, name = '', argumentsText = ''] = match;
    // open() counts only when it names a file; open(path) of a variable says nothing.
    if (name === 'open' && !/^\s*(?:f?["'])/.test(argumentsText)) continue;
    const text = call.replace(/\s+/g, ' ');
    if (!calls.includes(text)) calls.push(text);
  }
  return calls;
}

/** Reads the prototype's files and Python source; the folder is only read. */
export function scanPrototype(dir: string): PrototypeScan {
  const files = listFiles(dir);
  const python = files.filter((file) => extname(file.path) === '.py');
  const local = new Set(python.map((file) => file.path.replace(/\.py$/, '').split('/')[0]));
  const imports: string[] = [];
  const loads: string[] = [];
  for (const file of python) {
    const source = readFileSync(join(dir, file.path), 'utf8');
    for (const name of importedModules(source)) {
      if (!local.has(name) && !imports.includes(name)) imports.push(name);
    }
    for (const call of dataLoads(source)) if (!loads.includes(call)) loads.push(call);
  }
  const dataFiles = files.filter((file) => dataExtensions.has(extname(file.path).toLowerCase()));
  return { files, truncated: files.length >= maxFiles, imports, loads, dataFiles };
}
