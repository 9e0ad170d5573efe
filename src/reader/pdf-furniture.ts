import type { PdfLine } from './pdf-lines.js';

function nearEdge(line: PdfLine): boolean {
  return line.y < 60 || line.y > line.pageHeight - 60;
}

/**
 * Page furniture: page numbers (a bare number at the top or bottom of a page), and running
 * headers or footers (the same text, digits aside, at the top or bottom of two or more pages).
 */
export function furniture(lines: PdfLine[]): Set<PdfLine> {
  const pagesByText = new Map<string, Set<number>>();
  const key = (line: PdfLine): string => line.text.replace(/\d+/g, '#').toLowerCase();
  for (const line of lines) {
    if (!nearEdge(line)) continue;
    const pages = pagesByText.get(key(line)) ?? new Set<number>();
    pages.add(line.page);
    pagesByText.set(key(line), pages);
  }
  const lowest = new Map<number, number>();
  const highest = new Map<number, number>();
  for (const line of lines) {
    lowest.set(line.page, Math.min(lowest.get(line.page) ?? Infinity, line.y));
    highest.set(line.page, Math.max(highest.get(line.page) ?? -Infinity, line.y));
  }
  const pageNumber = (line: PdfLine): boolean =>
    !line.footnote &&
    /^(page\s+)?\d{1,4}$/i.test(line.text) &&
    (nearEdge(line) || line.y === lowest.get(line.page) || line.y === highest.get(line.page));
  return new Set(
    lines.filter(
      (line) =>
        pageNumber(line) ||
        (!line.footnote && nearEdge(line) && (pagesByText.get(key(line))?.size ?? 0) >= 2),
    ),
  );
}
