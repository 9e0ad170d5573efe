/**
 * Runs every bench in this folder (each `*.ts` file other than this one exports
 * `runBench(): Promise<void>` and prints its own figures). `npm run bench -- NAME…` runs
 * only the named ones (file names without .ts).
 */
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface BenchModule {
  runBench?: () => Promise<void>;
}

const folder = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(folder))
  .filter((name) => name.endsWith('.ts') && name !== 'index.ts' && !name.endsWith('.test.ts'))
  .filter((name) => wanted.length === 0 || wanted.includes(name.replace(/\.ts$/, '')))
  .sort();

if (files.length === 0) {
  console.error(`No bench matches ${wanted.join(', ')}; benches live in ${folder}.`);
  process.exitCode = 1;
}
for (const file of files) {
  console.log(`\n== ${file.replace(/\.ts$/, '')} ==`);
  const started = Date.now();
  try {
    const bench = (await import(pathToFileURL(`${folder}/${file}`).href)) as BenchModule;
    if (typeof bench.runBench !== 'function') {
      console.log(`(${file} exports no runBench(); skipped)`);
      continue;
    }
    await bench.runBench();
    console.log(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    console.error(`${file} failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
