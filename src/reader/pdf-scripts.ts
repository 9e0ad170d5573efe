import type { PdfItem } from './pdf-columns.js';

/** A sub- or superscript and the item it is attached to. */
export interface ScriptLink {
  base: PdfItem;
  kind: 'sub' | 'sup';
}

function end(item: PdfItem): number {
  return item.x + item.width;
}

/**
 * How `script` hangs from the item just before it: as its sub- or superscript when it is
 * smaller and off its baseline, or in the same script as it (or as an enclosing script,
 * climbing out of nested ones) when it is the same size on the same baseline.
 */
function scriptOf(
  script: PdfItem,
  left: PdfItem,
  links: Map<PdfItem, ScriptLink>,
): ScriptLink | undefined {
  for (let current: PdfItem | undefined = left; current !== undefined;) {
    const currentLink = links.get(current);
    if (current.size >= 1.15 * script.size) {
      const offset = script.y - current.y;
      if (offset > 0.12 * current.size && offset < 0.75 * current.size) {
        return { base: current, kind: 'sup' };
      }
      if (offset < -0.05 * current.size && offset > -0.5 * current.size) {
        return { base: current, kind: 'sub' };
      }
      return undefined;
    }
    if (currentLink === undefined) return undefined;
    if (
      Math.abs(script.size - current.size) <= 0.15 * script.size &&
      Math.abs(script.y - current.y) < 0.2 * script.size
    ) {
      return currentLink;
    }
    current = currentLink.base;
  }
  return undefined;
}

/**
 * Finds the sub- and superscripts among items: an item set noticeably smaller than the
 * item just before it (the base letter), with its baseline raised (superscript) or lowered
 * (subscript) by a fraction of the base's size; items of the same size that follow on the
 * same raised or lowered baseline belong to the same script ("−0.5", "i=1"). Scripts of
 * scripts nest (`d_{model}` in an exponent).
 */
export function findScripts(items: PdfItem[]): Map<PdfItem, ScriptLink> {
  const links = new Map<PdfItem, ScriptLink>();
  const sorted = [...items].sort((first, second) => first.x - second.x);
  for (const script of sorted) {
    let left: PdfItem | undefined;
    let distance = Infinity;
    for (const candidate of sorted) {
      if (candidate === script || candidate.x >= script.x) continue;
      const gap = script.x - end(candidate);
      if (gap < -0.6 || gap > 0.35 * candidate.size) continue;
      if (Math.abs(script.y - candidate.y) > 0.8 * Math.max(candidate.size, script.size)) continue;
      const score = Math.abs(gap) + 0.2 * Math.abs(script.y - candidate.y);
      if (score < distance) {
        distance = score;
        left = candidate;
      }
    }
    if (left === undefined) continue;
    const link = scriptOf(script, left, links);
    if (link !== undefined) links.set(script, link);
  }
  return links;
}

/** Whether a space separates two pieces of text placed `gap` points apart. */
function spaced(text: string, next: string, gap: number, size: number, math: boolean): boolean {
  if (/\s$/.test(text) || /^\s/.test(next) || text.length === 0) return false;
  if (gap > 0.15 * size) return true;
  // A number before a math symbol is a product: `2 γ`, not the word "2γ".
  if (math && /\p{N}$/u.test(text) && /^\p{L}/u.test(next)) return true;
  // After a script, a following letter starts a new symbol: `W_{1} z`, not `W_{1}z`.
  return /\}$/.test(text) && /^[\p{L}\p{N}\\]/u.test(next);
}

/** Renders an item with its scripts (recursively): `d_{model}^{−0.5}`. */
function renderItem(
  item: PdfItem,
  children: Map<PdfItem, PdfItem[]>,
  links: Map<PdfItem, ScriptLink>,
): string {
  const scripts = children.get(item) ?? [];
  let text = item.text;
  for (const kind of ['sub', 'sup'] as const) {
    const part = scripts.filter((script) => links.get(script)?.kind === kind);
    if (part.length === 0) continue;
    const inner = renderSequence(part, children, links).map((cell) => cell.text);
    text += `${kind === 'sub' ? '_' : '^'}{${inner.join(' ')}}`;
  }
  return text;
}

/** The right edge of an item with its scripts. */
function extent(item: PdfItem, children: Map<PdfItem, PdfItem[]>): number {
  return Math.max(end(item), ...(children.get(item) ?? []).map((child) => extent(child, children)));
}

/** A cell of a line: its text and left edge. */
export interface RenderedCell {
  text: string;
  x: number;
  /** Right edge of the cell's text (its scripts included). */
  right: number;
}

/**
 * Renders items left to right as text, with their scripts; the result is split into cells
 * where items (with their scripts) are far apart (more than `split` × the font size).
 */
function renderSequence(
  items: PdfItem[],
  children: Map<PdfItem, PdfItem[]>,
  links: Map<PdfItem, ScriptLink>,
  split = 1.2,
): RenderedCell[] {
  const sorted = [...items].sort((first, second) => first.x - second.x);
  const size = Math.max(...sorted.map((item) => item.size));
  const cells: RenderedCell[] = [];
  let cell: RenderedCell | undefined;
  let right: number | undefined;
  for (const item of sorted) {
    const text = renderItem(item, children, links);
    const gap = right === undefined ? 0 : item.x - right;
    if (cell === undefined || (right !== undefined && gap > split * size)) {
      if (cell !== undefined) cells.push(cell);
      cell = { text: '', x: item.x, right: item.x };
    } else if (spaced(cell.text, text, gap, item.size, item.math)) cell.text += ' ';
    cell.text += text;
    right = Math.max(right ?? -Infinity, extent(item, children));
    cell.right = right;
  }
  if (cell !== undefined) cells.push(cell);
  return cells
    .map((found) => ({ ...found, text: found.text.trim() }))
    .filter((found) => found.text.length > 0);
}

function childrenOf(items: PdfItem[], links: Map<PdfItem, ScriptLink>) {
  const children = new Map<PdfItem, PdfItem[]>();
  for (const item of items) {
    const link = links.get(item);
    if (link === undefined || !items.includes(link.base)) continue;
    children.set(link.base, [...(children.get(link.base) ?? []), item]);
  }
  const bases = items.filter((item) => {
    const link = links.get(item);
    return link === undefined || !items.includes(link.base);
  });
  return { children, bases };
}

/**
 * Items of one line (base items and their scripts) as cells, scripts written the LaTeX
 * way: `β_{1} = 0.9`, `10^{−9}`, `W_{1} z`.
 */
export function renderCells(
  items: PdfItem[],
  links = findScripts(items),
  split = 1.2,
): RenderedCell[] {
  const { children, bases } = childrenOf(items, links);
  return renderSequence(bases, children, links, split);
}

/** The text cells of `renderCells`. */
export function renderItems(items: PdfItem[], links = findScripts(items)): string[] {
  return renderCells(items, links).map((cell) => cell.text);
}
