/**
 * LaTeX's text accents and special letters written as commands (`\~{n}`, `\c c`, `\'e`,
 * `\ss`), as the Unicode letters they print (NFC: precomposed where Unicode has the
 * letter, else the letter and a combining mark). Math accents (`\tilde{x}`) stay LaTeX.
 */

/** The combining mark each accent command puts on its letter. */
const accentMarks: Record<string, string> = {
  '`': '\u0300',
  "'": '\u0301',
  '^': '\u0302',
  '~': '\u0303',
  '=': '\u0304',
  u: '\u0306',
  '.': '\u0307',
  '"': '\u0308',
  r: '\u030a',
  H: '\u030b',
  v: '\u030c',
  d: '\u0323',
  c: '\u0327',
  k: '\u0328',
  b: '\u0331',
};

/** Letters written as commands without an argument. */
const letters: Record<string, string> = {
  ss: 'ß',
  o: 'ø',
  O: 'Ø',
  ae: 'æ',
  AE: 'Æ',
  oe: 'œ',
  OE: 'Œ',
  aa: 'å',
  AA: 'Å',
  l: 'ł',
  L: 'Ł',
  i: 'ı',
  j: 'ȷ',
};

/** A dotless i or j under an accent is the plain letter: `\"{\i}` is ï. */
function accented(letter: string, mark: string): string {
  const base = letter === 'ı' ? 'i' : letter === 'ȷ' ? 'j' : letter;
  return `${base}${mark}`.normalize('NFC');
}

// `\~{n}`, `\~n`, `\c{c}`, `\c c`, `\'{\i}`, `\"\i`: a symbol accent takes the letter right
// after it or in braces (`\= x` in a tabbing is a tab stop, not a macron); a letter accent
// (`\c`, `\H`) needs braces or a space before its letter.
const letterCommand = /\\(ss|ae|AE|oe|OE|aa|AA|[oOlLij])(?![a-zA-Z])\s*(?:\{\})?/g;
const dotless = '\\\\[ij](?![a-zA-Z])';
const symbolAccent = new RegExp(
  `\\\\([\`'^~=".])(?:\\s*\\{\\s*([^{}\\s]|${dotless})\\s*\\}|([a-zA-Z]|${dotless}))`,
  'g',
);
const letterAccent = new RegExp(
  `\\\\([uvrHdckb])(?:\\s*\\{\\s*([^{}\\s]|${dotless})\\s*\\}|\\s+([a-zA-Z]|${dotless}))`,
  'g',
);

/** Text with its accent commands and letter commands replaced by Unicode letters. */
export function replaceTextAccents(text: string): string {
  const letterOf = (braced: string | undefined, bare: string | undefined): string => {
    const written = braced ?? bare ?? '';
    return written.startsWith('\\') ? (letters[written.slice(1).trim()] ?? written) : written;
  };
  const mark = (whole: string, name: string, braced?: string, bare?: string): string => {
    const combining = accentMarks[name];
    return combining === undefined ? whole : accented(letterOf(braced, bare), combining);
  };
  return text
    .replace(symbolAccent, mark)
    .replace(letterAccent, mark)
    .replace(letterCommand, (_whole, name: string) => letters[name] ?? '');
}
