/** One positioned run of text from a PDF page. */
export interface PdfItem {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
  monospace: boolean;
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

/**
 * Baseline groups in reading order. On a two-column page (many baselines with text on
 * both sides of the middle and none across it) each run of such baselines is read left
 * column first, then right; lines that span the middle (title, wide tables) stay in place.
 * A single-column page comes back as its baselines, top to bottom.
 */
export function readingOrder(items: PdfItem[], pageWidth: number): PdfItem[][] {
  const middle = pageWidth / 2;
  const baselines = groupBaselines(items);
  const leftEdge = Math.min(...items.map((item) => item.x));
  const rightEdge = Math.max(...items.map((item) => item.x + item.width));
  // Both halves must hold a line of text filling most of its column; a table row, with
  // short cells on both sides, does not make a page two-column.
  const fills = (side: PdfItem[], from: number, to: number): boolean => {
    if (side.length === 0) return false;
    const start = Math.min(...side.map((item) => item.x));
    const end = Math.max(...side.map((item) => item.x + item.width));
    return end - start >= 0.6 * (to - from);
  };
  const split = baselines.filter((group) => {
    if (group.some((item) => crosses(item, middle))) return false;
    const left = group.filter((item) => item.x + item.width <= middle);
    const right = group.filter((item) => item.x >= middle);
    return fills(left, leftEdge, middle) && fills(right, middle, rightEdge);
  }).length;
  if (split < 5 || split < 0.3 * baselines.length) return baselines;

  const ordered: PdfItem[][] = [];
  let block: PdfItem[] = [];
  const flush = (): void => {
    const left = block.filter((item) => item.x + item.width / 2 < middle);
    const right = block.filter((item) => item.x + item.width / 2 >= middle);
    ordered.push(...groupBaselines(left), ...groupBaselines(right));
    block = [];
  };
  for (const group of baselines) {
    if (group.some((item) => crosses(item, middle))) {
      flush();
      ordered.push(group);
    } else block.push(...group);
  }
  flush();
  return ordered;
}
