/**
 * What a PDF font's real name (from `page.commonObjs` after `getOperatorList`) says about
 * its text. Subset prefixes (`ABCDEF+CMMI10`) are ignored.
 */
function baseName(font: string): string {
  return font.replace(/^[A-Z]{6}\+/, '');
}

/** TeX's math fonts (Computer Modern, AMS, Latin Modern and common Times/Palatino math). */
export function isMathFont(font: string): boolean {
  return /^(CMMI|CMSY|CMEX|CMBSY|CMMIB|MSAM|MSBM|EUFM|EUSM|EUEX|EURM|RSFS|LMMathItalic|LMMathSymbols|LMMathExtension|txmi|txsy|txex|pxmi|pxsy|pxex|rtxmi|zxlmi|StandardSymbols|Symbol)/i.test(
    baseName(font),
  );
}

/** Math italic, where each letter is a symbol of its own. */
export function isMathItalicFont(font: string): boolean {
  return /^(CMMI|LMMathItalic|txmi|pxmi|rtxmi|zxlmi)/i.test(baseName(font));
}

/** Computer Modern (or Latin Modern) text fonts: in a CM-set paper, the body font. */
export function isComputerModernRoman(font: string): boolean {
  return /^(CMR|CMBX|CMTI|CMSL|CMSS|CMCSC|LMRoman)/i.test(baseName(font));
}

/** TeX's big-symbol font, whose glyphs pdf.js cannot map to Unicode. */
export function isExtensionFont(font: string): boolean {
  return /^(CMEX|LMMathExtension|txex|pxex|EUEX)/i.test(baseName(font));
}

export function isBoldFont(font: string): boolean {
  return /bold|medi|semibold|black|heavy|demi|^CMBX|^CMB|-Bd/i.test(baseName(font));
}

export function isMonospaceFont(font: string): boolean {
  return /mono|courier|^CMTT|^LMMono|typewriter|inconsolata|^SFTT/i.test(baseName(font));
}

/**
 * CMEX characters as pdf.js returns them (raw codes) and the symbols they draw: the big
 * operators, delimiters and radicals of display math.
 */
const extensionSymbols: Record<string, string> = {
  P: '∑',
  X: '∑',
  Q: '∏',
  Y: '∏',
  R: '∫',
  Z: '∫',
  S: '∮',
  '`': '∐',
  a: '∐',
  T: '⋃',
  '[': '⋃',
  U: '⋂',
  '\\': '⋂',
  p: '√',
  q: '√',
  r: '√',
  s: '√',
  t: '√',
  '\u0000': '(',
  '\u0010': '(',
  '\u0012': '(',
  ' ': '(',
  '\u0001': ')',
  '\u0011': ')',
  '\u0013': ')',
  '!': ')',
  '\u0002': '[',
  '\u0014': '[',
  '"': '[',
  '\u0003': ']',
  '\u0015': ']',
  '#': ']',
  '\u0008': '{',
  '\u001a': '{',
  '(': '{',
  '\u0009': '}',
  '\u001b': '}',
  ')': '}',
  '\u000c': '|',
  '\u000d': '‖',
  '\u000e': '/',
  '\u000f': '\\',
  '\u0004': '⌊',
  '\u0005': '⌋',
  '\u0006': '⌈',
  '\u0007': '⌉',
  '\u000a': '⟨',
  '\u000b': '⟩',
  '\u0016': '⌊',
  '\u0017': '⌋',
  '\u0018': '⌈',
  '\u0019': '⌉',
  '\u001c': '⟨',
  '\u001d': '⟩',
  b: '^',
  c: '^',
  d: '^',
  e: '~',
  f: '~',
  g: '~',
};

/** A CMEX item's text as the symbols it draws. */
export function extensionText(text: string): string {
  return [...text].map((character) => extensionSymbols[character] ?? character).join('');
}

/** Big operators, which take limits above and below in display math. */
export const bigOperators: Record<string, string> = {
  '∑': '\\sum',
  '∏': '\\prod',
  '∫': '\\int',
  '∮': '\\oint',
  '∐': '\\coprod',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
};
