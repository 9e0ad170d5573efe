/** One positioned run of text from a PDF page. */
export interface PdfItem {
  text: string;
  /** Left edge and baseline, in PDF points (y grows upwards). */
  x: number;
  y: number;
  width: number;
  size: number;
  monospace: boolean;
  /** The font's real name (`NimbusRomNo9L-Medi`, `CMMI10`), subset prefix included. */
  font: string;
  bold: boolean;
  /** Set in a math font (or built from math: a fraction, a root, a big operator). */
  math: boolean;
  /** Set in TeX's extension font (big delimiters and operators). */
  extension?: boolean;
}

/** A horizontal line drawn on the page. */
export interface PdfRule {
  x0: number;
  x1: number;
  y: number;
  thickness: number;
}

/** Items sharing a baseline (within a fraction of the font size), top to bottom. */
export function groupBaselines(items: PdfItem[]): PdfItem[][] {
  const sorted = [...items].sort((first, second) => second.y - first.y || first.x - second.x);
  const groups: PdfItem[][] = [];
  for (const item of sorted) {
    const group = groups.at(-1);
    const baseline = group?.[0];
    if (
      group &&
      baseline &&
      Math.abs(baseline.y - item.y) < 0.4 * Math.max(baseline.size, item.size)
    ) {
      group.push(item);
    } else groups.push([item]);
  }
  return groups;
}

function crosses(item: PdfItem, middle: number): boolean {
  return item.x < middle - 4 && item.x + item.width > middle + 4;
}

/** Lines on one side of the middle that start at its edge and fill most of it. */
function fullLines(items: PdfItem[], from: number, to: number): PdfItem[][] {
  return groupBaselines(items).filter((group) => {
    const start = Math.min(...group.map((item) => item.x));
    const end = Math.max(...group.map((item) => item.x + item.width));
    return start <= from + 0.1 * (to - from) && end - start >= 0.6 * (to - from);
  });
}

/** Where a two-column page's columns are. */
interface Columns {
  middle: number;
  leftEdge: number;
  rightEdge: number;
  /** Where the right column's text starts. */
  rightStart: number;
}

/**
 * The columns of a two-column page (several lines filling each half, whatever their
 * baselines); undefined for a page of one column.
 */
function twoColumns(items: PdfItem[], pageWidth: number): Columns | undefined {
  const middle = pageWidth / 2;
  const leftEdge = Math.min(...items.map((item) => item.x));
  const rightEdge = Math.max(...items.map((item) => item.x + item.width));
  const left = items.filter((item) => item.x + item.width <= middle + 4);
  const right = items.filter((item) => item.x >= middle - 4);
  if (left.length === 0 || right.length === 0) return undefined;
  const rightStart = Math.min(...right.map((item) => item.x));
  // Both halves must hold lines of text filling most of their column; a table row, with
  // short cells on both sides, does not make a page two-column.
  const columnLines = Math.min(
    fullLines(left, leftEdge, middle).length,
    fullLines(right, rightStart, rightEdge).length,
  );
  // On a one-column page most lines run across the middle.
  const across = groupBaselines(items).filter((group) =>
    group.some((item) => crosses(item, middle)),
  ).length;
  // Two lines a side are enough where nothing crosses the gutter (the last lines of a
  // balanced two-column block, alone on a page).
  if (columnLines < (across === 0 ? 2 : 3) || across >= columnLines) return undefined;
  return { middle, leftEdge, rightEdge, rightStart };
}

/**
 * The full-width lines of a two-column page: with an item across the middle (title,
 * notice, wide table), or centred as a whole with parts on both sides, neither at its
 * column's edge (an author line).
 */
function fullWidthLines(items: PdfItem[], columns: Columns): PdfItem[][] {
  const { middle, leftEdge, rightEdge, rightStart } = columns;
  const margin = 0.1 * (middle - leftEdge);
  return groupBaselines(items).filter((group) => {
    if (group.some((item) => crosses(item, middle))) return true;
    const onLeft = group.filter((item) => item.x + item.width / 2 < middle);
    const onRight = group.filter((item) => item.x + item.width / 2 >= middle);
    if (onLeft.length === 0 || onRight.length === 0) return false;
    const leftStart = Math.min(...onLeft.map((item) => item.x));
    const rightFirst = Math.min(...onRight.map((item) => item.x));
    const rightEnd = Math.max(...onRight.map((item) => item.x + item.width));
    // Centred as a whole, and short of the right edge (a centred equation in the left
    // column beside a line of the right one is two columns, not one centred line).
    const centred =
      Math.abs((leftStart + rightEnd) / 2 - middle) < 0.015 * (rightEdge - leftEdge) &&
      rightEnd < rightEdge - margin;
    return leftStart > leftEdge + margin && (rightFirst > rightStart + margin || centred);
  });
}

/**
 * Items in reading order, as runs of one column (or of the full width). On a two-column
 * page each block of columns between full-width lines is read left column first, then
 * right, and each full-width block where it stands: above, between or under the column
 * blocks. A single-column page comes back as one run.
 */
export function readingOrder(items: PdfItem[], pageWidth: number): PdfItem[][] {
  if (items.length === 0) return [];
  const columns = twoColumns(items, pageWidth);
  if (columns === undefined) return [items];
  const { middle } = columns;
  const ordered: PdfItem[][] = [];
  const placed = new Set<PdfItem>();
  const place = (run: PdfItem[]): void => {
    for (const item of run) placed.add(item);
  };
  // The run of full-width lines last read, while no column text has come after it: the
  // next full-width line joins it (a wide paragraph or table is one run, not one per line).
  let wide: PdfItem[] | undefined;
  /** Reads the columns above `bottom`, left first; returns what belongs to the block below. */
  const flushAbove = (bottom: number, beforeBlock: boolean): PdfItem[] => {
    const band = items.filter((item) => !placed.has(item) && item.y >= bottom);
    const inLeft = band.filter((item) => item.x + item.width / 2 < middle);
    const inRight = band.filter((item) => item.x + item.width / 2 >= middle);
    const tail = new Set(
      beforeBlock ? [...blockStart(inLeft, inRight), ...blockStart(inRight, inLeft)] : [],
    );
    for (const run of [inLeft, inRight].map((side) => side.filter((item) => !tail.has(item)))) {
      if (run.length === 0) continue;
      ordered.push(run);
      place(run);
      wide = undefined;
    }
    return [...tail];
  };
  for (const group of fullWidthLines(items, columns)) {
    const size = Math.max(...group.map((item) => item.size));
    const top = Math.max(...group.map((item) => item.y));
    const bottom = Math.min(...group.map((item) => item.y));
    // Everything above this full-width line (its own raised scripts aside) first.
    const tail = flushAbove(top + 0.6 * size, true);
    const line = items.filter(
      (item) => !placed.has(item) && item.y >= bottom - 0.6 * size && item.y < top + 0.6 * size,
    );
    const run = [...tail, ...line];
    if (run.length === 0) continue;
    place(run);
    if (wide !== undefined) wide.push(...run);
    else {
      wide = run;
      ordered.push(run);
    }
  }
  flushAbove(-Infinity, false);
  return ordered;
}

/**
 * The lines of one column that start the full-width block below the columns, not the
 * column: those under the other column's last line, after a break wider than the column's
 * line spacing (the heading of a full-width section after balanced columns). A column that
 * merely runs a line longer than the other keeps its last line.
 */
function blockStart(side: PdfItem[], other: PdfItem[]): PdfItem[] {
  if (side.length === 0 || other.length === 0) return [];
  const lines = groupBaselines(side);
  const baselines = lines.map((line) => Math.min(...line.map((item) => item.y)));
  const gaps = baselines.slice(1).map((y, index) => (baselines[index] ?? y) - y);
  const pitch = median(gaps) ?? 1.2 * Math.max(...side.map((item) => item.size));
  const otherBottom = Math.min(...other.map((item) => item.y));
  const start = lines.findIndex((line, index) => {
    const size = Math.max(...line.map((item) => item.size));
    const top = Math.max(...line.map((item) => item.y));
    const gap = index === 0 ? Infinity : (baselines[index - 1] ?? 0) - (baselines[index] ?? 0);
    return top < otherBottom - 0.5 * size && gap > 1.5 * pitch;
  });
  return start < 0 ? [] : lines.slice(start).flat();
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.floor(sorted.length / 2)];
}
