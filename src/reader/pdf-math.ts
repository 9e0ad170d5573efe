import type { PdfItem, PdfRule } from './pdf-columns.js';
import { bigOperators } from './pdf-fonts.js';
import { placeAccents } from './pdf-accents.js';
import { renderItems } from './pdf-scripts.js';

function end(item: PdfItem): number {
  return item.x + item.width;
}

function center(item: PdfItem): number {
  return item.x + item.width / 2;
}

/** An item standing for a piece of math built from several (a fraction, a root, a sum). */
function built(
  text: string,
  x: number,
  right: number,
  y: number,
  size: number,
  font: string,
): PdfItem {
  return { text, x, y, width: right - x, size, monospace: false, font, bold: false, math: true };
}

/** The text of items set on one or more baselines, top line first. */
function inline(items: PdfItem[]): string {
  return renderItems(items).join(' ');
}

/** The main baseline of items: that of the largest. */
function mainBaseline(items: PdfItem[]): PdfItem | undefined {
  return [...items].sort((first, second) => second.size - first.size || first.y - second.y)[0];
}

/**
 * OT1 fonts draw `\_` as a short rule on the baseline; pdf.js then reads a space (or
 * nothing) where the underscore is. Puts the underscore back.
 */
function placeUnderscores(
  items: PdfItem[],
  rules: PdfRule[],
): { items: PdfItem[]; rules: PdfRule[] } {
  const used = new Set<PdfRule>();
  const result = items.map((item) => ({ ...item }));
  for (const rule of rules) {
    const width = rule.x1 - rule.x0;
    const host = result.find(
      (item) =>
        width < 0.8 * item.size &&
        rule.y > item.y - 0.35 * item.size &&
        rule.y < item.y + 0.15 * item.size &&
        rule.x0 >= item.x - 1 &&
        rule.x1 <= end(item) + 1.5,
    );
    if (host === undefined) continue;
    const characters = [...host.text];
    const position = ((rule.x0 + rule.x1) / 2 - host.x) / Math.max(host.width, 0.1);
    const guess = Math.round(position * characters.length);
    // The nearest space to where the rule is (pdf.js puts one in the rule's gap).
    let index = -1;
    for (let offset = 0; offset <= 2 && index < 0; offset += 1) {
      for (const candidate of [guess - offset, guess + offset, guess - 1 - offset]) {
        if (characters[candidate] === ' ') {
          index = candidate;
          break;
        }
      }
    }
    if (index >= 0) characters[index] = '_';
    else if (rule.x0 >= end(host) - 1) characters.push('_');
    else continue;
    host.text = characters.join('');
    used.add(rule);
  }
  return { items: result, rules: rules.filter((rule) => !used.has(rule)) };
}

/**
 * Square roots: a "√" whose right edge meets a rule (the overline); the items under the
 * rule are the radicand.
 */
function composeRoots(items: PdfItem[], rules: PdfRule[]): { items: PdfItem[]; rules: PdfRule[] } {
  let current = items;
  const used = new Set<PdfRule>();
  for (const radical of items.filter((item) => item.text === '√')) {
    const rule = rules.find(
      (candidate) =>
        !used.has(candidate) &&
        Math.abs(candidate.x0 - end(radical)) < 1.5 &&
        candidate.y >= radical.y - 0.5 * radical.size &&
        candidate.y <= radical.y + 3 * radical.size,
    );
    if (rule === undefined) continue;
    const radicand = current.filter(
      (item) =>
        item !== radical &&
        item.x >= rule.x0 - 0.5 &&
        end(item) <= rule.x1 + 1 &&
        item.y < rule.y &&
        item.y > rule.y - 1.6 * Math.max(item.size, radical.size * 0.7),
    );
    const base = mainBaseline(radicand);
    if (base === undefined) continue;
    used.add(rule);
    const root = built(
      `\\sqrt{${inline(radicand)}}`,
      radical.x,
      rule.x1,
      base.y,
      base.size,
      base.font,
    );
    current = [...current.filter((item) => item !== radical && !radicand.includes(item)), root];
  }
  return { items: current, rules: rules.filter((rule) => !used.has(rule)) };
}

/** Whether a rule is one of a table's: another rule of the same extent lies above or below. */
function tableRule(rule: PdfRule, rules: PdfRule[]): boolean {
  return rules.some(
    (other) =>
      other !== rule && Math.abs(other.x0 - rule.x0) < 1 && Math.abs(other.x1 - rule.x1) < 1,
  );
}

/**
 * Fractions: a short rule with short math directly above (the numerator, within the bar's
 * width) and below (the denominator) becomes `\frac{…}{…}` on the line's baseline.
 */
function composeFractions(
  items: PdfItem[],
  rules: PdfRule[],
): { items: PdfItem[]; rules: PdfRule[] } {
  let current = items;
  const used = new Set<PdfRule>();
  // Inner fractions first: the narrowest bars.
  // A rule starting where lines of text start is a separator (footnotes), not a bar.
  const atLineStart = (rule: PdfRule): boolean =>
    items.filter(
      (item) => Math.abs(item.x - rule.x0) < 1 && Math.abs(item.y - rule.y) > 2.5 * item.size,
    ).length >= 3;
  const bars = rules
    .filter(
      (rule) =>
        rule.x1 - rule.x0 < 120 &&
        rule.thickness < 1.5 &&
        !tableRule(rule, rules) &&
        !atLineStart(rule),
    )
    .sort((first, second) => first.x1 - first.x0 - (second.x1 - second.x0));
  for (const bar of bars) {
    const within = current.filter(
      (item) =>
        center(item) > bar.x0 - 0.5 &&
        center(item) < bar.x1 + 0.5 &&
        item.x > bar.x0 - 2 &&
        end(item) < bar.x1 + 2,
    );
    const numerator = within.filter((item) => item.y > bar.y && item.y - bar.y < 1.3 * item.size);
    const denominator = within.filter(
      (item) => item.y < bar.y && bar.y - item.y < 1.9 * Math.max(item.size, 7),
    );
    const parts = [...numerator, ...denominator];
    if (numerator.length === 0 || denominator.length === 0) continue;
    // Prose above and below a rule (a footnote separator, a table) is not a fraction.
    if (
      parts.some((item) => item.text.length > 16) ||
      parts.every((item) => !item.math && /[a-z]{3}/.test(item.text))
    )
      continue;
    const top = mainBaseline(numerator);
    const bottom = mainBaseline(denominator);
    if (top === undefined || bottom === undefined) continue;
    used.add(bar);
    const size = Math.max(top.size, bottom.size);
    // The bar sits on the math axis, a quarter of the size above the baseline.
    const fraction = built(
      `\\frac{${inline(numerator)}}{${inline(denominator)}}`,
      bar.x0,
      bar.x1,
      bar.y - 0.25 * size,
      size,
      top.font,
    );
    current = [...current.filter((item) => !parts.includes(item)), fraction];
  }
  return { items: current, rules: rules.filter((rule) => !used.has(rule)) };
}

/**
 * The baseline a big symbol (CMEX) belongs to: its glyph origin sits above the line, so
 * it takes the baseline of the nearest item beside it.
 */
function lineOf(symbol: PdfItem, items: PdfItem[]): number | undefined {
  const neighbours = items.filter(
    (item) =>
      item !== symbol &&
      !item.extension &&
      item.size >= 0.85 * symbol.size &&
      item.y <= symbol.y + 0.1 * symbol.size &&
      item.y > symbol.y - 3 * symbol.size &&
      (Math.abs(item.x - end(symbol)) < 2 * symbol.size ||
        Math.abs(end(item) - symbol.x) < 2 * symbol.size),
  );
  const nearest = neighbours.sort(
    (first, second) =>
      Math.min(Math.abs(first.x - end(symbol)), Math.abs(end(first) - symbol.x)) -
      Math.min(Math.abs(second.x - end(symbol)), Math.abs(end(second) - symbol.x)),
  )[0];
  return nearest?.y;
}

/**
 * Big operators with limits above and below (`\sum_{i=1}^{B}`), and big delimiters moved
 * onto the baseline of their line.
 */
function composeBigSymbols(items: PdfItem[]): PdfItem[] {
  let current = items;
  for (const symbol of items.filter((item) => item.extension)) {
    const baseline = lineOf(symbol, current);
    const command = bigOperators[symbol.text.trim()];
    if (command === undefined) {
      if (baseline !== undefined) {
        current = current.map((item) =>
          item === symbol ? { ...item, y: baseline, math: true } : item,
        );
      }
      continue;
    }
    const line = baseline ?? symbol.y - 0.9 * symbol.size;
    const limits = current.filter(
      (item) =>
        item !== symbol &&
        item.size < 0.9 * symbol.size &&
        center(item) > symbol.x - 1 &&
        center(item) < end(symbol) + 1,
    );
    // An upper limit sits just above the symbol's origin; text further up is the line above.
    const above = limits.filter(
      (item) => item.y > symbol.y && item.y - symbol.y < 0.8 * symbol.size,
    );
    const below = limits.filter(
      (item) => item.y < line - 0.3 * symbol.size && line - item.y < 2 * symbol.size,
    );
    let text = command;
    if (below.length > 0) text += `_{${inline(below)}}`;
    if (above.length > 0) text += `^{${inline(above)}}`;
    const operator = built(text, symbol.x, end(symbol), line, symbol.size, symbol.font);
    current = [
      ...current.filter(
        (item) => item !== symbol && !above.includes(item) && !below.includes(item),
      ),
      operator,
    ];
  }
  return current;
}

/** Operators written as words that take limits below in display math (`\max_{k}`). */
const limitWords = /(max|min|lim|sup|inf)$/;

/** Limits set under an operator word: `arg max` with a "k" centred beneath "max". */
function composeWordLimits(items: PdfItem[]): PdfItem[] {
  let current = items;
  for (const operator of items.filter((item) => limitWords.test(item.text))) {
    const word = limitWords.exec(operator.text)?.[1] ?? '';
    // The operator word is the end of the item: its share of the item's width.
    const from = end(operator) - (operator.width * word.length) / operator.text.length;
    const below = current.filter(
      (item) =>
        item !== operator &&
        item.size < 0.9 * operator.size &&
        center(item) > from - 1 &&
        center(item) < end(operator) + 1 &&
        item.y < operator.y - 0.3 * operator.size &&
        item.y > operator.y - 1.5 * operator.size,
    );
    if (below.length === 0) continue;
    const limited = { ...operator, text: `${operator.text}_{${inline(below)}}`, math: true };
    current = [...current.filter((item) => item !== operator && !below.includes(item)), limited];
  }
  return current;
}

/**
 * Rebuilds the math a page shows from its glyphs and rules: accents over their letters,
 * square roots, fractions and big operators with limits, each as one item written in
 * LaTeX. The rules left over (table rules, footnote separators) come back too.
 */
export function composeMath(
  items: PdfItem[],
  rules: PdfRule[],
): { items: PdfItem[]; rules: PdfRule[] } {
  const underscored = placeUnderscores(items, rules);
  const accented = placeAccents(underscored.items);
  const roots = composeRoots(accented, underscored.rules);
  const fractions = composeFractions(roots.items, roots.rules);
  return {
    items: composeWordLimits(composeBigSymbols(fractions.items)),
    rules: fractions.rules,
  };
}
