import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import {
  extensionText,
  isBoldFont,
  isExtensionFont,
  isMathItalicFont,
  isMonospaceFont,
} from './pdf-fonts.js';
import { clippedRuns, type ClippedRun } from './pdf-clipped-text.js';
import { composeInlineAccents, isAccent } from './pdf-accents.js';
import { texBitmapDecoder } from './pdf-tex-encodings.js';
import type { PdfItem, PdfRule } from './pdf-columns.js';

/** One page's positioned text and its horizontal rules. */
export interface PdfPageContent {
  page: number;
  width: number;
  height: number;
  items: PdfItem[];
  rules: PdfRule[];
}

interface PdfjsTextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

function isTextItem(item: unknown): item is PdfjsTextItem {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

type Matrix = [number, number, number, number, number, number];

function multiply(first: Matrix, second: Matrix): Matrix {
  const [a, b, c, d, e, f] = first;
  const [g, h, i, j, k, l] = second;
  return [
    a * g + b * i,
    a * h + b * j,
    c * g + d * i,
    c * h + d * j,
    e * g + f * i + k,
    e * h + f * j + l,
  ];
}

function apply(matrix: Matrix, x: number, y: number): [number, number] {
  return [matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5]];
}

/**
 * Horizontal rules drawn on the page: fraction bars, square-root overlines, booktabs rules,
 * the footnote separator, OT1 underscores. TeX draws them as stroked lines or thin filled
 * rectangles; the operator list holds them with the transforms that place them.
 */
function horizontalRules(
  operators: { fnArray: number[]; argsArray: unknown[] },
  codes: Record<string, number>,
): PdfRule[] {
  const rules: PdfRule[] = [];
  const stack: Matrix[] = [];
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  let lineWidth = 1;
  const { save, restore, transform, setLineWidth, constructPath, moveTo, lineTo, rectangle } =
    codes;
  operators.fnArray.forEach((operator, index) => {
    const args = operators.argsArray[index];
    if (operator === save) stack.push(matrix);
    else if (operator === restore) matrix = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (operator === transform && Array.isArray(args) && args.length === 6) {
      matrix = multiply(args.map(Number) as Matrix, matrix);
    } else if (operator === setLineWidth && Array.isArray(args)) {
      lineWidth = Number(args[0]) || 0;
    } else if (operator === constructPath && Array.isArray(args)) {
      const [ops, coordinates] = args as [number[], number[]];
      if (!Array.isArray(ops) || !Array.isArray(coordinates)) return;
      const scale = Math.hypot(matrix[2], matrix[3]);
      let position = 0;
      let current: [number, number] = [0, 0];
      for (const op of ops) {
        if (op === moveTo) {
          current = apply(matrix, coordinates[position] ?? 0, coordinates[position + 1] ?? 0);
          position += 2;
        } else if (op === lineTo) {
          const next = apply(matrix, coordinates[position] ?? 0, coordinates[position + 1] ?? 0);
          position += 2;
          if (Math.abs(next[1] - current[1]) < 0.5 && Math.abs(next[0] - current[0]) > 1) {
            rules.push({
              x0: Math.min(current[0], next[0]),
              x1: Math.max(current[0], next[0]),
              y: (current[1] + next[1]) / 2,
              thickness: lineWidth * scale,
            });
          }
          current = next;
        } else if (op === rectangle) {
          const [x, y, width, height] = coordinates.slice(position, position + 4);
          position += 4;
          const [x0, y0] = apply(matrix, x ?? 0, y ?? 0);
          const [x1, y1] = apply(matrix, (x ?? 0) + (width ?? 0), (y ?? 0) + (height ?? 0));
          const thickness = Math.abs(y1 - y0);
          if (thickness < 3 && Math.abs(x1 - x0) > 1) {
            rules.push({
              x0: Math.min(x0, x1),
              x1: Math.max(x0, x1),
              y: (y0 + y1) / 2,
              thickness,
            });
          }
        } else {
          // Curves and other path parts: skip their coordinates (6 for a Bézier, 4 for v/y).
          position += op === codes.curveTo ? 6 : op === codes.closePath ? 0 : 4;
        }
      }
    }
  });
  return rules;
}

/**
 * Reads a page's text items (with real font names, true font sizes, CMEX glyphs mapped to
 * the symbols they draw) and its horizontal rules.
 */
export async function readPageContent(
  page: PDFPageProxy,
  number: number,
  codes: Record<string, number>,
): Promise<PdfPageContent> {
  // The operator list loads the fonts, after which commonObjs knows their real names.
  const operators = await page.getOperatorList();
  const content = await page.getTextContent();
  const fontNames = new Map<string, string>();
  const realName = (id: string): string => {
    const known = fontNames.get(id);
    if (known !== undefined) return known;
    let name = content.styles[id]?.fontFamily ?? id;
    try {
      const font: unknown = page.commonObjs.get(id);
      if (typeof font === 'object' && font !== null && 'name' in font) name = String(font.name);
    } catch {
      // Not loaded (a font pdf.js could not read): its style family is all there is.
    }
    fontNames.set(id, name);
    return name;
  };
  const decoders = bitmapFontDecoders(
    page,
    content.items.flatMap((item) => (isTextItem(item) ? [item] : [])),
  );
  const items: PdfItem[] = [];
  for (const found of content.items) {
    if (!isTextItem(found)) continue;
    const decode = decoders.get(found.fontName);
    const raw = decode === undefined ? found : { ...found, str: decode(found.str) };
    // Whitespace items only fill gaps; the gaps themselves separate words and cells.
    if (raw.str.trim().length === 0) continue;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = raw.transform.map(Number);
    // Rotated text (arXiv's side stamp, axis labels) is not part of the reading flow.
    if (Math.abs(b) > 0.01 * Math.abs(a) || Math.abs(c) > 0.01 * Math.abs(d)) continue;
    const font = realName(raw.fontName);
    const family = content.styles[raw.fontName]?.fontFamily ?? '';
    const extension = isExtensionFont(font);
    const size = Math.hypot(c, d) || Math.hypot(a, b);
    const monospace =
      isMonospaceFont(font) || /mono|courier/i.test(family) || /courier|mono/i.test(raw.fontName);
    const item: PdfItem = {
      text: extension
        ? extensionText(raw.str)
        : isMathItalicFont(font)
          ? separateSymbols(normalizeText(raw.str))
          : normalizeText(raw.str, monospace),
      x,
      y,
      width: raw.width,
      size,
      monospace,
      font,
      bold: isBoldFont(font),
      math: false,
      extension,
    };
    // An accent that pdf.js ran into the text before it ("so ˜" over the next letter)
    // becomes an item of its own, at the end, so that it can be placed over its letter.
    const trailing = [...raw.str.trimEnd()].at(-1) ?? '';
    if (!extension && !monospace && raw.str.trim().length > 1 && isAccent(trailing)) {
      const accentWidth = Math.min(0.5 * size, raw.width);
      const head = raw.str.trimEnd().slice(0, -trailing.length);
      items.push({ ...item, text: normalizeText(head, monospace), width: raw.width - accentWidth });
      items.push({ ...item, text: trailing, x: x + raw.width - accentWidth, width: accentWidth });
      continue;
    }
    items.push(item);
  }
  restoreClipped(items, clippedRuns(operators, codes, page.view[2] ?? 612));
  return {
    page: number,
    width: page.view[2] ?? 612,
    height: page.view[3] ?? 792,
    items,
    rules: horizontalRules(operators, codes),
  };
}

/** The decoders of the page's TeX bitmap fonts whose glyphs pdf.js read as bare codes. */
function bitmapFontDecoders(
  page: PDFPageProxy,
  items: PdfjsTextItem[],
): Map<string, (text: string) => string> {
  const texts = new Map<string, string[]>();
  for (const item of items) {
    let font: unknown;
    try {
      font = page.commonObjs.get(item.fontName);
    } catch {
      continue;
    }
    const type3 =
      typeof font === 'object' && font !== null && 'isType3Font' in font && font.isType3Font;
    if (type3 === true) texts.set(item.fontName, [...(texts.get(item.fontName) ?? []), item.str]);
  }
  const decoders = new Map<string, (text: string) => string>();
  for (const [font, strings] of texts) {
    const decoder = texBitmapDecoder(strings);
    if (decoder !== undefined) decoders.set(font, decoder);
  }
  return decoders;
}

/**
 * Two letters side by side in math italic are separate symbols (TeX's `X W`, a product):
 * "XW" reads "X W". Longer runs are usually names written in math (`Z_{mix}`), kept whole.
 */
function separateSymbols(text: string): string {
  return text.replace(/(?<!\p{L})(\p{L})(\p{L})(?!\p{L})/gu, '$1 $2');
}

/**
 * Puts back the glyphs pdf.js dropped past the page's right edge: appended to the item they
 * continue (same baseline, starting where it ends), else a new item like the last one on
 * that baseline.
 */
function restoreClipped(items: PdfItem[], runs: ClippedRun[]): void {
  for (const run of runs) {
    const sameLine = items.filter((item) => Math.abs(item.y - run.y) < 0.5);
    const continued = sameLine.find((item) => Math.abs(item.x + item.width - run.x) < 2);
    if (continued !== undefined) {
      continued.text += normalizeText(run.text);
      continued.width = run.right - continued.x;
      continue;
    }
    const last = sameLine.sort((first, second) => second.x - first.x)[0];
    if (last === undefined) continue;
    items.push({
      ...last,
      text: normalizeText(run.text),
      x: run.x,
      width: run.right - run.x,
    });
  }
}

/**
 * NFKC with accents put on their letters, except for a lone spacing accent, which NFKC
 * would turn into a space and a mark. Control characters (a font's unmapped codes, a NUL
 * for a mark it could not name) are dropped: they are never text.
 */
function normalizeText(text: string, monospace = false): string {
  const visible = text.replace(/\p{Cc}/gu, '');
  if (isAccent(visible.trim())) return visible.trim();
  // In code a backquote or a caret before a letter is itself.
  return (monospace ? visible : composeInlineAccents(visible)).normalize('NFKC');
}
