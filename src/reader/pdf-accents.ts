import type { PdfItem } from './pdf-columns.js';

/**
 * Spacing accent glyphs, as pdf.js reads the accents TeX (and other typesetters) draw as
 * glyphs of their own over or under a letter: the combining mark each puts on a letter of
 * text, and the command it stands for over a letter of math (none for the accents that
 * math does not have).
 */
const spacingAccents = new Map<string, { mark: string; command?: string }>([
  ['`', { mark: '\u0300', command: 'grave' }],
  ['´', { mark: '\u0301', command: 'acute' }],
  ['ˆ', { mark: '\u0302', command: 'hat' }],
  ['˜', { mark: '\u0303', command: 'tilde' }],
  ['¯', { mark: '\u0304', command: 'bar' }],
  ['˘', { mark: '\u0306', command: 'breve' }],
  ['˙', { mark: '\u0307', command: 'dot' }],
  ['¨', { mark: '\u0308', command: 'ddot' }],
  ['˚', { mark: '\u030a', command: 'mathring' }],
  ['˝', { mark: '\u030b' }],
  ['ˇ', { mark: '\u030c', command: 'check' }],
  ['¸', { mark: '\u0327' }],
  ['˛', { mark: '\u0328' }],
]);

export function isAccent(text: string): boolean {
  return spacingAccents.has(text);
}

/** A letter with a combining mark, precomposed where Unicode has the letter. */
export function withMark(letter: string, mark: string): string {
  // TeX sets ï and ȷ̈ as a dotless letter under the accent.
  const base = letter === 'ı' ? 'i' : letter === 'ȷ' ? 'j' : letter;
  return `${base}${mark}`.normalize('NFC');
}

const accentThenLetter = new RegExp(`([${[...spacingAccents.keys()].join('')}])(\\p{L})`, 'gu');

/**
 * Text with each spacing accent that stands right before a letter in one run of glyphs
 * (TeX draws the accent first) put on that letter: "Se˜nor" reads "Señor".
 */
export function composeInlineAccents(text: string): string {
  return text.replace(accentThenLetter, (whole, accent: string, letter: string) => {
    const mark = spacingAccents.get(accent)?.mark;
    return mark === undefined ? whole : withMark(letter, mark);
  });
}

function center(item: PdfItem): number {
  return item.x + item.width / 2;
}

/**
 * Accents drawn as separate glyphs above (or, for a cedilla or ogonek, under) a letter:
 * a letter of text becomes the accented letter (`\~{n}` is "ñ"), a letter of math gets the
 * accent command (`\tilde{x}`). The accent glyphs themselves are dropped.
 */
export function placeAccents(items: PdfItem[]): PdfItem[] {
  const removed = new Set<PdfItem>();
  // Each changed item's characters, one entry per letter with its marks, so that a second
  // accent on the same item finds its letter where the first left it.
  const letters = new Map<PdfItem, string[]>();
  const math = new Set<PdfItem>();
  for (const accent of items) {
    const accentKind = spacingAccents.get(accent.text);
    // In code a backquote or a caret is a character of its own.
    if (accentKind === undefined || accent.monospace) continue;
    const { mark, command } = accentKind;
    const middle = center(accent);
    const base = items
      .filter(
        (item) =>
          item !== accent &&
          !isAccent(item.text) &&
          item.x - 0.5 <= middle &&
          item.x + item.width + 0.5 >= middle &&
          accent.y - item.y >= -0.1 * item.size &&
          accent.y - item.y < 1.2 * item.size,
      )
      .sort((first, second) => second.y - first.y)[0];
    removed.add(accent);
    if (base === undefined) continue;
    const characters = letters.get(base) ?? [...base.text];
    // TeX centres the accent over its letter, which begins the base's run of glyphs when
    // the accent comes right before it; else, where the accent's centre falls along the run.
    const share = (middle - base.x) / Math.max(base.width, 0.1);
    const index =
      middle < base.x + 0.6 * base.size
        ? 0
        : Math.min(characters.length - 1, Math.max(0, Math.floor(share * characters.length)));
    const character = characters[index] ?? '';
    if (character.length === 0 || /\s/.test(character)) continue;
    if (base.math && command !== undefined) {
      if (character.startsWith('\\')) continue;
      characters[index] = `\\${command}{${character}}`;
      math.add(base);
    } else characters[index] = withMark(character, mark);
    letters.set(base, characters);
  }
  return items
    .filter((item) => !removed.has(item))
    .map((item) => {
      const characters = letters.get(item);
      if (characters === undefined) return item;
      return { ...item, text: characters.join(''), math: item.math || math.has(item) };
    });
}
