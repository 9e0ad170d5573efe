import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/**
 * The built web app: web/dist of the package, two folders above this file both in src/server
 * (tests, tsx) and in dist/server (the installed package).
 */
export function defaultAppDirectory(): string {
  return fileURLToPath(new URL('../../web/dist/', import.meta.url));
}

export function appIsBuilt(appDirectory: string): boolean {
  return existsSync(join(appDirectory, 'index.html'));
}

/**
 * Answers a request for a file of the app; any path that is not a file (a page of the
 * single-page app) gets index.html. Paths (already decoded) never leave the app folder.
 */
export function serveAppFile(
  appDirectory: string,
  pathname: string,
  response: ServerResponse,
): void {
  if (!appIsBuilt(appDirectory)) {
    response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(
      `The web app is not built (no ${join(appDirectory, 'index.html')}). Run \`npm run build\` in the codify folder, then reload. The API under /api works without it.\n`,
    );
    return;
  }
  const root = realpathSync(appDirectory);
  let target = resolve(root, `.${pathname}`);
  const inside = relative(root, target);
  if (inside.startsWith(`..${sep}`) || inside === '..' || !existsSync(target)) {
    target = join(root, 'index.html');
  } else if (statSync(target).isDirectory()) {
    target = join(target, 'index.html');
    if (!existsSync(target)) target = join(root, 'index.html');
  }
  const real = realpathSync(target);
  if (relative(root, real).startsWith('..')) target = join(root, 'index.html');
  const hashed = target.includes(`${sep}assets${sep}`);
  response.writeHead(200, {
    'content-type': contentTypes[extname(target)] ?? 'application/octet-stream',
    // Built assets carry a content hash in their name; index.html must always be fetched anew.
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  response.end(readFileSync(target));
}
