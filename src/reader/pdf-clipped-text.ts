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

/** The first argument of a text-showing operator: its glyphs. */
const firstArgument = (args: unknown): unknown =>
  Array.isArray(args) ? (args as unknown[])[0] : undefined;

/**
 * The graphics and text state a page's operators build up, as far as placing glyphs needs
 * it, and the runs of glyphs found right of the page's edge.
 */
class GlyphPlacer {
  readonly runs: ClippedRun[] = [];
  private readonly stack: Matrix[] = [];
  private ctm = identity();
  private textMatrix = identity();
  private lineMatrix = identity();
  private fontId = '';
  private fontSize = 0;
  private leading = 0;
  private charSpacing = 0;
  private hScale = 1;

  constructor(
    private readonly codes: Record<string, number>,
    private readonly pageRight: number,
  ) {}

  apply(operator: number, args: unknown): void {
    const values = numbers(args);
    if (this.graphics(operator, values) || this.position(operator, values)) return;
    if (this.textState(operator, args, values)) return;
    const { codes } = this;
    if (operator === codes.showText || operator === codes.showSpacedText) {
      this.show(firstArgument(args));
    } else if (operator === codes.nextLineShowText) {
      this.moveTo(0, -this.leading);
      this.show(firstArgument(args));
    }
  }

  /** Saving, restoring and transforming the current transformation matrix. */
  private graphics(operator: number, values: number[]): boolean {
    const { codes } = this;
    if (operator === codes.save) this.stack.push(this.ctm);
    else if (operator === codes.restore) this.ctm = this.stack.pop() ?? identity();
    else if (operator === codes.transform) {
      if (values.length === 6) this.ctm = multiply(values as Matrix, this.ctm);
    } else return false;
    return true;
  }

  /** Where the next line of text starts. */
  private position(operator: number, values: number[]): boolean {
    const { codes } = this;
    if (operator === codes.beginText) {
      this.textMatrix = identity();
      this.lineMatrix = identity();
    } else if (operator === codes.setTextMatrix) {
      if (values.length === 6) {
        this.lineMatrix = values as Matrix;
        this.textMatrix = [...this.lineMatrix];
      }
    } else if (operator === codes.moveText) this.moveTo(values[0] ?? 0, values[1] ?? 0);
    else if (operator === codes.setLeadingMoveText) {
      this.leading = -(values[1] ?? 0);
      this.moveTo(values[0] ?? 0, values[1] ?? 0);
    } else if (operator === codes.nextLine) this.moveTo(0, -this.leading);
    else return false;
    return true;
  }

  /** The font, its size, and the spacing and scaling of glyphs. */
  private textState(operator: number, args: unknown, values: number[]): boolean {
    const { codes } = this;
    if (operator === codes.setLeading) this.leading = values[0] ?? 0;
    else if (operator === codes.setCharSpacing) this.charSpacing = values[0] ?? 0;
    else if (operator === codes.setHScale) this.hScale = (values[0] ?? 100) / 100;
    else if (operator === codes.setFont) {
      if (Array.isArray(args)) {
        this.fontId = String((args as unknown[])[0]);
        this.fontSize = Number((args as unknown[])[1]) || 0;
      }
    } else return false;
    return true;
  }

  private moveTo(x: number, y: number): void {
    this.lineMatrix = multiply([1, 0, 0, 1, x, y], this.lineMatrix);
    this.textMatrix = [...this.lineMatrix];
  }

  /** Places each glyph shown, keeping those right of the page's edge as runs. */
  private show(glyphs: unknown): void {
    if (!Array.isArray(glyphs)) return;
    let run: ClippedRun | undefined;
    for (const glyph of glyphs as unknown[]) {
      if (typeof glyph === 'number') {
        const shift = (-glyph / 1000) * this.fontSize * this.hScale;
        this.textMatrix = multiply([1, 0, 0, 1, shift, 0], this.textMatrix);
        continue;
      }
      const { unicode, width } = (glyph ?? {}) as Glyph;
      const advance = ((Number(width) || 0) / 1000) * this.fontSize + this.charSpacing;
      const [a, , , , e, f] = multiply(this.textMatrix, this.ctm);
      const end = e + advance * this.hScale * a;
      if (e > this.pageRight && typeof unicode === 'string') {
        run ??= { fontId: this.fontId, x: e, right: end, y: f, text: '' };
        run.text += unicode;
        run.right = end;
      } else if (run !== undefined) {
        this.runs.push(run);
        run = undefined;
      }
      this.textMatrix = multiply([1, 0, 0, 1, advance * this.hScale, 0], this.textMatrix);
    }
    if (run !== undefined) this.runs.push(run);
  }
}

/** The glyph runs of one page's operator list that lie right of `pageRight`. */
export function clippedRuns(
  operators: { fnArray: number[]; argsArray: unknown[] },
  codes: Record<string, number>,
  pageRight: number,
): ClippedRun[] {
  const placer = new GlyphPlacer(codes, pageRight);
  operators.fnArray.forEach((operator, index) =>
    placer.apply(operator, operators.argsArray[index]),
  );
  return placer.runs;
}
