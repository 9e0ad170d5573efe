/**
 * The paper as the stages after planning see it: the sections code is built from in full,
 * the others condensed to a few sentences, deterministically (no model call), so that every
 * later call repeats less of the paper while sharing one cacheable prefix.
 */

export interface CondenseOptions {
  /** Quotes the configuration cites (its `evidence`): a section holding one stays whole. */
  quotes: string[];
  /** The design's text: a section, table or algorithm it cites by number or title stays whole. */
  design?: string;
  /** Names the design uses (file, class, function, config key parts): sentences naming one are kept. */
  terms: string[];
  /** The most characters a condensed section body keeps (default 500, at most half the section). */
  maxSectionChars?: number;
}

export interface CondensedPaper {
  text: string;
  /** Headings of the sections kept in full. */
  full: string[];
  /** Headings of the sections condensed. */
  condensed: string[];
}

export interface Block {
  heading: string;
  level: number;
  /** The heading line as written, e.g. `## 2 Method`. */
  line: string;
  body: string[];
}

/**
 * Sections whose heading names what code is built from: the method, the model, the data
 * and the experimental protocol. Their subsections are kept whole too.
 */
const implementationHeading =
  /\b(method|methods|methodology|approach|model|models|architecture|algorithm|algorithms|setup|set-up|experiment|experiments|experimental|implementation|training|data|dataset|datasets|hyper-?parameters?|evaluation|metrics?|protocol|procedure|reproduc\w*|objective|loss|optimi[sz]ation|preliminar\w*|formulation|notation)\b/i;

/** Sections dropped to their heading: nothing in them is needed to write or check code. */
const omittedHeading = /^(references|bibliography|acknowledge?ments?)$/i;

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, ' ')
    .trim();

/** Splits rendered Markdown into heading blocks; `#` lines inside fences are not headings. */
export function splitBlocks(text: string): { preamble: string[]; blocks: Block[] } {
  const preamble: string[] = [];
  const blocks: Block[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{2,6})\s+(.*)$/.exec(line);
    if (heading !== null) {
      blocks.push({
        heading: (heading[2] ?? '').trim(),
        level: (heading[1] ?? '##').length,
        line,
        body: [],
      });
      continue;
    }
    const current = blocks.at(-1);
    if (current === undefined) preamble.push(line);
    else current.body.push(line);
  }
  return { preamble, blocks };
}

/**
 * The heading without its number: `2.1 Model` → `Model`, `A.2 Proofs` → `Proofs`;
 * `Appendix A: Checklist` and `A Simple Baseline` stay.
 */
export const bareHeading = (heading: string) =>
  heading.replace(/^(\d+(\.\d+)*|[A-Z](\.\d+)+|[A-Z]\.)\.?\s+(?=\S)/, '');

/** A number that says something (a setting, a size), not a citation's year or a bracket reference. */
function holdsNumber(sentence: string): boolean {
  const stripped = sentence
    .replace(/\([^()]*\b(19|20)\d\d[a-z]?\)/g, '')
    .replace(/\b(19|20)\d\d[a-z]?\b/g, '')
    .replace(/\[\d+(,\s*\d+)*\]/g, '');
  return /\d/.test(stripped);
}

function sentences(paragraph: string): string[] {
  return paragraph
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z(\\$`*])/)
    .filter((sentence) => sentence.length > 0);
}

/**
 * A section cut to its first sentence plus every sentence holding a number, inline math or
 * a term of the design, up to maxChars; display equations stay verbatim (code is built
 * from them), tables leave their caption.
 */
export function condenseSection(body: string, terms: string[], maxChars: number): string {
  const termPatterns = terms.map(
    (term) => new RegExp(`(^|[^\\w])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`, 'i'),
  );
  const kept: string[] = [];
  let used = 0;
  let first = true;
  const paragraphs = body.split(/\n\s*\n/);
  for (const paragraph of paragraphs) {
    // Table rows carry numbers but no sentences: only a caption beside them is kept.
    const trimmed = paragraph
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('|'))
      .join('\n')
      .trim();
    if (trimmed.length === 0) continue;
    if (trimmed.startsWith('$$')) {
      kept.push(trimmed);
      continue;
    }
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) continue;
    for (const sentence of sentences(trimmed)) {
      const wanted =
        first ||
        holdsNumber(sentence) ||
        sentence.includes('$') ||
        termPatterns.some((pattern) => pattern.test(sentence));
      // The first sentence says what the section is about: kept whatever its length.
      if (!wanted || (!first && used + sentence.length > maxChars)) continue;
      first = false;
      kept.push(sentence);
      used += sentence.length + 1;
    }
  }
  // Sentences are joined into one paragraph; equations stand on their own lines.
  const out: string[] = [];
  for (const piece of kept) {
    const last = out.at(-1);
    if (piece.startsWith('$$') || last === undefined || last.startsWith('$$')) out.push(piece);
    else out[out.length - 1] = `${last} ${piece}`;
  }
  return out.join('\n\n');
}

/** The names a design uses, as words to look for in the paper's other sections. */
export function designTerms(design: string, configKeys: string[]): string[] {
  const found = new Set<string>();
  for (const match of design.matchAll(/`([^`\n]{3,40})`/g)) found.add((match[1] ?? '').trim());
  for (const match of design.matchAll(/\b[A-Za-z]+(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z]\w*\b/g))
    found.add(match[0]);
  // A key's last part names the setting (`learning_rate`); its groups (`data`, `model`) are
  // common words that would keep every sentence.
  for (const key of configKeys) found.add(key.split('.').at(-1) ?? key);
  return [...found].filter((term) => term.length >= 4 && /[A-Za-z]/.test(term));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the design cites a section: by its number (`Section 3.1`, `Sec. 3`, `§3`), as an
 * appendix (`Appendix A`), by its title (a title of two words or more as written, a
 * one-word title as `the Results section`), or by a table or algorithm it holds (`Table 2`).
 */
export function citedByDesign(heading: string, body: string, design: string): boolean {
  if (design.length === 0) return false;
  const patterns: RegExp[] = [];
  const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1];
  if (number !== undefined)
    patterns.push(new RegExp(`(section|sec\\.|§)\\s*${escape(number)}(?!\\.\\d|\\d)`, 'i'));
  const appendix = /^appendix\s+([A-Z])\b/i.exec(heading)?.[1];
  if (appendix !== undefined) patterns.push(new RegExp(`\\bappendix\\s+${appendix}\\b`, 'i'));
  const title = bareHeading(heading)
    .replace(/^appendix\s+[A-Z]\s*[:.]\s*/i, '')
    .trim();
  if (title.split(/\s+/).length >= 2) patterns.push(new RegExp(`\\b${escape(title)}\\b`, 'i'));
  else if (title.length > 0)
    patterns.push(
      new RegExp(`\\b${escape(title)}\\s+section\\b|\\bsection\\s+${escape(title)}\\b`, 'i'),
    );
  for (const match of body.matchAll(/^\s*(?:\*\*)?(Table|Algorithm)\s+(\d+)\b/gim))
    patterns.push(new RegExp(`\\b${match[1] ?? ''}\\s+${match[2] ?? ''}(?!\\d)`, 'i'));
  return patterns.some((pattern) => pattern.test(design));
}

/**
 * Condenses the paper for the stages after planning. A section stays whole when its
 * heading (or a parent's) names the method, model, data or protocol, when it holds an
 * equation block or an algorithm, or when a configuration quote comes from it or the
 * design cites it; references
 * and acknowledgements are dropped to their heading; every other section (abstract,
 * introduction, related work, results, conclusion…) keeps its first sentence and the
 * sentences with numbers or the design's terms.
 */
export function condensePaper(paper: string, options: CondenseOptions): CondensedPaper {
  const maxChars = options.maxSectionChars ?? 500;
  const { preamble, blocks } = splitBlocks(paper);
  const quotes = options.quotes.map(squash).filter((quote) => quote.length > 0);
  const full: string[] = [];
  const condensed: string[] = [];
  const parts: string[] = [preamble.join('\n').trim()];
  const parents: Block[] = [];
  for (const block of blocks) {
    while ((parents.at(-1)?.level ?? 0) >= block.level) parents.pop();
    const body = block.body.join('\n').trim();
    const heading = bareHeading(block.heading);
    const inherited = parents.some((parent) =>
      implementationHeading.test(bareHeading(parent.heading)),
    );
    parents.push(block);
    const squashed = squash(body);
    const whole =
      body.length === 0 ||
      implementationHeading.test(heading) ||
      inherited ||
      /^\$\$/m.test(body) ||
      /^```algorithm/m.test(body) ||
      quotes.some((quote) => squashed.includes(quote)) ||
      citedByDesign(block.heading, body, options.design ?? '');
    if (omittedHeading.test(heading)) {
      condensed.push(block.heading);
      parts.push(`${block.line}\n\n(Omitted: not needed to write the code.)`);
    } else if (whole) {
      if (body.length > 0) full.push(block.heading);
      parts.push(body.length > 0 ? `${block.line}\n\n${body}` : block.line);
    } else {
      const short = condenseSection(body, options.terms, Math.min(maxChars, body.length / 2));
      if (short.length >= body.length) {
        full.push(block.heading);
        parts.push(`${block.line}\n\n${body}`);
        continue;
      }
      condensed.push(block.heading);
      parts.push(
        `${block.line}\n\n(Condensed: the first sentence and those with numbers or the design's names; ${short.length} of ${body.length} characters.)\n\n${short}`,
      );
    }
  }
  return { text: `${parts.filter((part) => part.length > 0).join('\n\n')}\n`, full, condensed };
}
