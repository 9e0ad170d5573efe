/**
 * The Content-Security-Policy of every response of the app: everything from its own origin
 * only. Pages show text that models wrote (design diagrams drawn by mermaid, plans, reasons),
 * so markup slipped into it (`<img src=http://…>`, CSS `url(…)`) must not reach the network:
 * images, fonts, styles, scripts and connections all stay on this server. Styles allow inline
 * ones because mermaid and KaTeX style their own output inline; `data:` images and fonts are
 * bytes already in the page, not a fetch.
 */
export const appContentPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A run's file sent as text: it never runs as a page and loads nothing. */
export const runFileContentPolicy = "sandbox; default-src 'none'";
