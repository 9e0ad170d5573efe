import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh random token, as Jupyter prints one: 48 hex characters. */
export function createAccessToken(): string {
  return randomBytes(24).toString('hex');
}

/**
 * Where a request may carry the token: `Authorization: token T` or `Bearer T` (the page's own
 * requests, and programs), or `?token=T` (the printed URL, and the page's event streams and
 * file links, which cannot set a header). Never a cookie: browsers send a cookie of 127.0.0.1
 * to every port of it, so any other local server the browser opens would receive the token,
 * and a second `codify ui` would overwrite it. The page keeps the token in its origin's
 * storage instead, which is scoped by port (see web/src/access-token.ts).
 */
export function tokenOfRequest(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
    if (match?.[1] !== undefined) return match[1];
  }
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null && fromQuery !== '') return fromQuery;
  return undefined;
}

/** Compares in constant time, so the token cannot be guessed a character at a time. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
