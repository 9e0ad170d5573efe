/** Endings that never stand alone after a hyphen: "train-ing", "regular-izer". */
const suffixes =
  /^(ing|ings|ed|er|ers|es|est|ly|tion|tions|sion|sions|ment|ments|ness|ity|ities|able|ible|al|ally|ize|ized|izes|izer|ise|ised|ation|ations|ative|ive|ous|ful|less|ism|ist|ists)$/;
const wordPattern = /\p{L}+(?:-\p{L}+)*/gu;

/**
 * Joins words broken at line ends ("permu-" + "tation"), deciding from the rest of the
 * document, in this order: the joined word occurs elsewhere → join; the hyphenated form
 * occurs inside a line elsewhere → keep the hyphen ("English-to", "position-wise"); the
 * left part is a word of its own (four letters or more, and the right part no suffix such as
 * "-ing") → keep it ("sequence-aligned"); otherwise join. A blind
 * join gives "Englishto"; a blind keep gives "permu-tation".
 */
export class Dehyphenator {
  private readonly words = new Set<string>();
  private readonly compounds = new Set<string>();

  constructor(lines: string[]) {
    for (const line of lines) {
      const tokens = line.match(wordPattern) ?? [];
      // A line's last token, when the line ends in a hyphen, is half a word: not evidence.
      const broken = /\p{L}-$/u.test(line.trim());
      const whole = broken ? tokens.slice(0, -1) : tokens;
      for (const token of whole) {
        const lower = token.toLowerCase();
        if (lower.includes('-')) this.compounds.add(lower);
        for (const part of lower.split('-')) this.words.add(part);
      }
    }
  }

  /** `left` ends with a hyphen (after a letter); `right` is the next line. */
  join(left: string, right: string): string {
    const head = left.replace(/-$/, '');
    const fragment = /(\p{L}+)$/u.exec(head)?.[1] ?? '';
    const rest = /^\p{L}+/u.exec(right.trimStart())?.[0] ?? '';
    if (fragment.length === 0 || rest.length === 0) return `${left}${right.trimStart()}`;
    const joined = `${fragment}${rest}`.toLowerCase();
    const keep =
      !this.words.has(joined) &&
      !suffixes.test(rest.toLowerCase()) &&
      (this.compounds.has(`${fragment}-${rest}`.toLowerCase()) ||
        (fragment.length >= 4 && this.words.has(fragment.toLowerCase())));
    return keep ? `${left}${right.trimStart()}` : `${head}${right.trimStart()}`;
  }
}
