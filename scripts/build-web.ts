// Builds the web app (web/) into web/dist with Vite; `npm run build` runs it after tsc, and
// `codify ui` serves the result. JSX is compiled by Vite's esbuild, so no plugin is needed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const webRoot = fileURLToPath(new URL('../web/', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
export const webDist = join(webRoot, 'dist');

export interface BuildWebOptions {
  /** Where the built files go; default web/dist. */
  outDir?: string;
  logLevel?: 'info' | 'silent';
}

export async function buildWebApp(options: BuildWebOptions = {}): Promise<void> {
  // Vite and React's JSX follow NODE_ENV: under vitest (NODE_ENV=test) the app would be built
  // as React's development bundle (twice the size, slower to render) and left in web/dist for
  // `codify ui` to serve. The package's app is always the production one.
  const nodeEnvironment = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildProduction(options);
  } finally {
    if (nodeEnvironment === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnvironment;
  }
}

async function buildProduction(options: BuildWebOptions): Promise<void> {
  await build({
    mode: 'production',
    root: webRoot,
    base: '/',
    logLevel: options.logLevel ?? 'info',
    configFile: false,
    esbuild: { jsx: 'automatic' },
    build: {
      outDir: options.outDir ?? webDist,
      emptyOutDir: true,
      // mermaid's lazily loaded layout engine (elk) is one chunk of 1.5 MB; nothing to split.
      chunkSizeWarningLimit: 2048,
    },
  });
}

/**
 * web/dist, rebuilt first when any source it is made of (web/, src/, the lock file) is newer
 * than it: tests and benches then measure the current code without paying for a build that
 * `npm run build` has already made.
 */
export async function ensureWebAppBuilt(): Promise<string> {
  const index = join(webDist, 'index.html');
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = [join(repositoryRoot, 'package-lock.json'), join(webRoot, 'index.html')];
  const newest = Math.max(
    ...sources.map((path) => statSync(path).mtimeMs),
    newestIn(join(webRoot, 'src')),
    newestIn(join(repositoryRoot, 'src')),
  );
  if (newest > builtAt) await buildWebApp({ logLevel: 'silent' });
  return webDist;
}

function newestIn(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWebApp();
