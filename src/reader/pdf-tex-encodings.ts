/**
 * TeX's bitmap fonts (Type 3, what pdflatex embeds when a font has no Type 1 version, as
 * the T1-encoded EC fonts without cm-super) carry no names for their glyphs, so pdf.js
 * reads each glyph as its character code: "ﬁ" arrives as U+001C, "–" as U+0015, "Č" as
 * U+0083. The code is the font encoding's: Cork (T1) or TeX's original OT1. These tables
 * give the text each code prints. Spaces are pdf.js's own (TeX sets none), so 0x20 stays one.
 */

/** A table from code to text, for codes that do not print as the character of that code. */
type Encoding = Map<number, string>;

const latinExtended = 'ĂĄĆČĎĚĘĞĹĽŁŃŇŊŐŔŘŚŠŞŤŢŰŮŸŹŽŻĲİđ§ăąćčďěęğĺľłńňŋőŕřśšşťţűůÿźžżĳ¡¿£';

const cork: Encoding = new Map<number, string>([
  ...[...'`´ˆ˜¨˝˚ˇ˘¯˙¸˛‚‹›“”„«»–—'].map((text, code): [number, string] => [code, text]),
  [0x17, ''],
  [0x18, ''],
  [0x19, 'ı'],
  [0x1a, 'ȷ'],
  [0x1b, 'ff'],
  [0x1c, 'fi'],
  [0x1d, 'fl'],
  [0x1e, 'ffi'],
  [0x1f, 'ffl'],
  [0x27, '’'],
  [0x60, '‘'],
  [0x7f, '-'],
  ...[...latinExtended].map((text, index): [number, string] => [0x80 + index, text]),
  [0xd7, 'Œ'],
  [0xdf, 'SS'],
  [0xf7, 'œ'],
  [0xff, 'ß'],
]);

const ot1: Encoding = new Map<number, string>([
  ...[...'ΓΔΘΛΞΠΣΥΦΨΩ'].map((text, code): [number, string] => [code, text]),
  [0x0b, 'ff'],
  [0x0c, 'fi'],
  [0x0d, 'fl'],
  [0x0e, 'ffi'],
  [0x0f, 'ffl'],
  ...[...'ıȷ`´ˇ˘¯˚¸ßæœøÆŒØ'].map((text, index): [number, string] => [0x10 + index, text]),
  [0x22, '”'],
  [0x27, '’'],
  [0x3c, '¡'],
  [0x3e, '¿'],
  [0x5c, '“'],
  [0x5f, '˙'],
  [0x60, '‘'],
  [0x7b, '–'],
  [0x7c, '—'],
  [0x7d, '˝'],
  [0x7e, '˜'],
  [0x7f, '¨'],
]);

// eslint-disable-next-line no-control-regex
const controlCode = /[\u0000-\u001f\u007f-\u009f]/;

function count(texts: string[], from: number, to: number): number {
  let found = 0;
  for (const text of texts) {
    for (const character of text) {
      const code = character.codePointAt(0) ?? 0;
      if (code >= from && code <= to) found += 1;
    }
  }
  return found;
}

/**
 * How to read the strings pdf.js gave for one bitmap font: undefined when none holds a
 * control code (its glyphs were named after all). OT1 where its ligature codes (ﬀ ﬁ ﬂ at
 * 0x0B–0x0F) outnumber Cork's (0x1B–0x1F) and no code passes 0x7F; Cork otherwise, the
 * encoding of nearly every bitmap text font pdflatex embeds.
 */
export function texBitmapDecoder(texts: string[]): ((text: string) => string) | undefined {
  if (!texts.some((text) => controlCode.test(text))) return undefined;
  const isOt1 =
    count(texts, 0x0b, 0x0f) > count(texts, 0x1b, 0x1f) && count(texts, 0x80, 0xff) === 0;
  const encoding = isOt1 ? ot1 : cork;
  return (text) =>
    [...text].map((character) => encoding.get(character.codePointAt(0) ?? 0) ?? character).join('');
}
