/**
 * Text pdf.js leaves out of a page's text content: it drops every glyph whose origin lies
 * right of the page box, so a LaTeX overfull line that runs past the paper's edge
 * (`load_breast_cancer` set in \texttt at the end of a line) loses its last letters. The
 * operator list still holds those glyphs; this walks its text operators, places each glyph
 * as the PDF does, and returns the runs that fall outside the page.
 */

type Matrix = [number, number, number, number, number, number];

/** Glyphs past the page's right edge, in page coordinates. */
export interface ClippedRun {
  /** The pdf.js font id (`g_d0_f11`), as text items name it. */
  fontId: string;
  /** Where the first dropped glyph starts, and where the last ends. */
  x: number;
  right: number;
  y: number;
  text: string;
}

interface Glyph {
  unicode?: unknown;
  width?: unknown;
}

const identity = (): Matrix => [1, 0, 0, 1, 0, 0];

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

const numbers = (args: unknown): number[] =>
  Array.isArray(args) ? (args as unknown[]).map((value) => Number(value) || 0) : [];

/** The glyph runs of one page's operator list that lie right of `pageRight`. */
export function clippedRuns(
  operators: { fnArray: number[]; argsArray: unknown[] },
  codes: Record<string, number>,
  pageRight: number,
): ClippedRun[] {
  const runs: ClippedRun[] = [];
  const stack: Matrix[] = [];
  let ctm = identity();
  let textMatrix = identity();
  let lineMatrix = identity();
  let fontId = '';
  let fontSize = 0;
  let leading = 0;
  let charSpacing = 0;
  let hScale = 1;
  const moveTo = (x: number, y: number): void => {
    lineMatrix = multiply([1, 0, 0, 1, x, y], lineMatrix);
    textMatrix = [...lineMatrix];
  };
  const show = (glyphs: unknown): void => {
    if (!Array.isArray(glyphs)) return;
    let run: ClippedRun | undefined;
    for (const glyph of glyphs as unknown[]) {
      if (typeof glyph === 'number') {
        textMatrix = multiply([1, 0, 0, 1, (-glyph / 1000) * fontSize * hScale, 0], textMatrix);
        continue;
      }
      const { unicode, width } = (glyph ?? {}) as Glyph;
      const advance = ((Number(width) || 0) / 1000) * fontSize + charSpacing;
      const [a, , , , e, f] = multiply(textMatrix, ctm);
      const end = e + advance * hScale * a;
      if (e > pageRight && typeof unicode === 'string') {
        run ??= { fontId, x: e, right: end, y: f, text: '' };
        run.text += unicode;
        run.right = end;
      } else if (run !== undefined) {
        runs.push(run);
        run = undefined;
      }
      textMatrix = multiply([1, 0, 0, 1, advance * hScale, 0], textMatrix);
    }
    if (run !== undefined) runs.push(run);
  };
  operators.fnArray.forEach((operator, index) => {
    const args = operators.argsArray[index];
    const values = numbers(args);
    switch (operator) {
      case codes.save:
        stack.push(ctm);
        break;
      case codes.restore:
        ctm = stack.pop() ?? identity();
        break;
      case codes.transform:
        if (values.length === 6) ctm = multiply(values as Matrix, ctm);
        break;
      case codes.beginText:
        textMatrix = identity();
        lineMatrix = identity();
        break;
      case codes.setTextMatrix:
        if (values.length === 6) {
          lineMatrix = values as Matrix;
          textMatrix = [...lineMatrix];
        }
        break;
      case codes.moveText:
        moveTo(values[0] ?? 0, values[1] ?? 0);
        break;
      case codes.setLeadingMoveText:
        leading = -(values[1] ?? 0);
        moveTo(values[0] ?? 0, values[1] ?? 0);
        break;
      case codes.nextLine:
        moveTo(0, -leading);
        break;
      case codes.setLeading:
        leading = values[0] ?? 0;
        break;
      case codes.setCharSpacing:
        charSpacing = values[0] ?? 0;
        break;
      case codes.setHScale:
        hScale = (values[0] ?? 100) / 100;
        break;
      case codes.setFont:
        if (Array.isArray(args)) {
          fontId = String((args as unknown[])[0]);
          fontSize = Number((args as unknown[])[1]) || 0;
        }
        break;
      case codes.showText:
      case codes.showSpacedText:
        show(Array.isArray(args) ? (args as unknown[])[0] : undefined);
        break;
      case codes.nextLineShowText:
        moveTo(0, -leading);
        show(Array.isArray(args) ? (args as unknown[])[0] : undefined);
        break;
      default:
        break;
    }
  });
  return runs;
}
