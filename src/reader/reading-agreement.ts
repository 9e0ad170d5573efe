import type { PaperDocument, PaperTable } from './document.js';
import { renderDocument } from './render-document.js';

/**
 * How closely one reading of a paper (say, of its PDF) agrees with a reference reading (of
 * its LaTeX source). Used to measure the PDF reader against pdflatex-built fixtures.
 */
export interface ReadingAgreement {
  /**
   * Word similarity of the body text (everything rendered except display equations):
   * 2·LCS / (|reference| + |reading|) over word tokens, LCS being the longest common
   * subsequence of the two token sequences. 1 means the same words in the same order.
   */
  wordSimilarity: number;
  referenceWords: number;
  readingWords: number;
  /**
   * Tables of the reading that match no table of the reference (by caption, or by first row
   * when uncaptioned), each named by its caption or first row.
   */
  inventedTables: string[];
  /** The reference's display equations that no display equation of the reading matches. */
  missingEquations: string[];
  /** For each reference equation, the word similarity of its best in-order match (0 if none). */
  equationSimilarities: number[];
}

const greek: Record<string, string> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ϵ',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  vartheta: 'ϑ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'ϕ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Xi: 'Ξ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
};
/** Commands that print as a word (`\log` shows "log"). */
const wordCommands = /^(log|ln|exp|min|max|sin|cos|tan|det|arg|sup|inf|lim|dim|ker|Pr)$/;

/**
 * Word tokens of Markdown text with LaTeX math: runs of letters or digits, lower case.
 * In math, Greek commands become their letters, function names (`\log`) stay words and
 * other commands (`\mathrm`, `\frac`, `\left`) vanish, so `$\lambda z_{\pi(i)}$` and the
 * PDF's `λz_{π(i)}` give the same tokens. Citations in brackets are left out: the source
 * names keys where the PDF prints numbers.
 */
export function wordTokens(text: string): string[] {
  const plain = text
    .replace(/\\([a-zA-Z]+)/g, (_whole, name: string) => {
      const letter = greek[name];
      if (letter !== undefined) return ` ${letter} `;
      return wordCommands.test(name) ? ` ${name} ` : ' ';
    })
    .replace(/\[[\p{L}\p{N}:.,\s?-]*\]/gu, ' ')
    .normalize('NFKC')
    .toLowerCase();
  return plain.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Length of the longest common subsequence of two token sequences (two rows of DP). */
function commonSubsequence(first: string[], second: string[]): number {
  let previous = new Array<number>(second.length + 1).fill(0);
  let current = new Array<number>(second.length + 1).fill(0);
  for (const token of first) {
    for (let column = 1; column <= second.length; column += 1) {
      current[column] =
        token === second[column - 1]
          ? (previous[column - 1] ?? 0) + 1
          : Math.max(previous[column] ?? 0, current[column - 1] ?? 0);
    }
    [previous, current] = [current, previous];
  }
  return previous[second.length] ?? 0;
}

/** 2·LCS / (|first| + |second|); 1 for two empty sequences. */
export function tokenSimilarity(first: string[], second: string[]): number {
  if (first.length + second.length === 0) return 1;
  return (2 * commonSubsequence(first, second)) / (first.length + second.length);
}

/** The rendered document without its display equations: the text the words are counted in. */
export function bodyText(document: PaperDocument): string {
  return renderDocument(document)
    .split('\n')
    .filter((line) => !/^\$\$.*\$\$$/.test(line.trim()))
    .join('\n');
}

/** An equation of the reading matches a reference equation at this word similarity or more. */
const equationThreshold = 0.6;

/** Compares a reading of a paper with a reference reading of the same paper. */
export function compareReadings(
  reference: PaperDocument,
  reading: PaperDocument,
): ReadingAgreement {
  const referenceTokens = wordTokens(bodyText(reference));
  const readingTokens = wordTokens(bodyText(reading));
  const tables = (document: PaperDocument) =>
    document.sections.flatMap((section) => section.tables);
  // A table is known by its caption, or by its first row when it has none.
  const tableKey = (table: PaperTable) =>
    wordTokens(table.caption ?? (table.rows[0] ?? []).join(' '));
  const unmatched = tables(reference).map(tableKey);
  const inventedTables = tables(reading)
    .filter((table) => {
      const key = tableKey(table);
      const match = unmatched.findIndex((candidate) => tokenSimilarity(candidate, key) >= 0.8);
      if (match >= 0) unmatched.splice(match, 1);
      return match < 0;
    })
    .map((table) => table.caption ?? (table.rows[0] ?? []).join(' | '));
  const equations = (document: PaperDocument) =>
    document.sections.flatMap((section) => section.equations).map(wordTokens);
  const found = equations(reading);
  const missingEquations: string[] = [];
  const equationSimilarities: number[] = [];
  let next = 0;
  const referenceEquations = reference.sections.flatMap((section) => section.equations);
  equations(reference).forEach((tokens, index) => {
    let best = 0;
    let bestAt = -1;
    for (let candidate = next; candidate < found.length; candidate += 1) {
      const similarity = tokenSimilarity(tokens, found[candidate] ?? []);
      if (similarity > best) {
        best = similarity;
        bestAt = candidate;
      }
    }
    equationSimilarities.push(best >= equationThreshold ? best : 0);
    if (best >= equationThreshold) next = bestAt + 1;
    else missingEquations.push(referenceEquations[index] ?? '');
  });
  return {
    wordSimilarity: tokenSimilarity(referenceTokens, readingTokens),
    referenceWords: referenceTokens.length,
    readingWords: readingTokens.length,
    inventedTables,
    missingEquations,
    equationSimilarities,
  };
}
