// The server's access token, as the page keeps it. Not a cookie: a browser sends the cookies
// of 127.0.0.1 to every port of it (so to any other local server it opens), and a second
// `codify ui` would overwrite them. Web storage is kept per origin, and an origin includes
// the port: only this server's pages read it, and each server keeps its own.

const storageKey = 'codify-ui-token';

/**
 * Takes the token from the address the person opened (the printed `?token=…` URL) into
 * storage and drops it from the address bar, so it is not left in history or shown on screen.
 */
export function captureAccessToken(): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null || token === '') return;
  window.localStorage.setItem(storageKey, token);
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export function accessToken(): string | undefined {
  return window.localStorage.getItem(storageKey) ?? undefined;
}

/** Headers that carry the token on the page's own requests. */
export function tokenHeaders(): Record<string, string> {
  const token = accessToken();
  return token === undefined ? {} : { authorization: `token ${token}` };
}

/**
 * An API path with the token in its query, for what cannot send a header: an EventSource,
 * an image, a link opened in a new tab. These stay on this origin, which sends no referrer.
 */
export function withToken(path: string): string {
  const token = accessToken();
  if (token === undefined) return path;
  return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}
