/** Collapses runs of whitespace to one space and trims. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A heading without its numbering ("2.1 Method" → "Method", "3. Results" → "Results",
 * "B.2 Proofs" → "Proofs"), so headings agree across formats whether or not the source
 * numbered them by hand.
 */
export function stripHeadingNumber(heading: string): string {
  const text = normalizeWhitespace(heading);
  const stripped = text
    .replace(/^(\d+(\.\d+)*)\.?\s+/, '')
    .replace(/^[A-Z](\.\d+)+\.?\s+/, '')
    .replace(/^[A-Z]\.\s+/, '');
  return stripped.length > 0 ? stripped : text;
}

/** True for the headings of a bibliography, which codify drops. */
export function isReferencesHeading(heading: string): boolean {
  return /^(references|bibliography|works cited|literature cited|citations)$/i.test(
    stripHeadingNumber(heading).replace(/[.:]$/, ''),
  );
}

/** True for an abstract's heading. */
export function isAbstractHeading(heading: string): boolean {
  return /^abstract$/i.test(stripHeadingNumber(heading).replace(/[.:]$/, ''));
}

/** Splits an author line on commas, semicolons and "and". */
export function splitAuthors(line: string): string[] {
  return line
    .replace(/^\s*authors?\s*[:.]\s*/i, '')
    .split(/\s*(?:,|;|\band\b|\\and)\s*/)
    .map((name) => normalizeWhitespace(name.replace(/[*_]/g, '')))
    .filter((name) => name.length > 0);
}

/** A caption without surrounding whitespace and its final period. */
export function normalizeCaption(caption: string | undefined): string | undefined {
  if (caption === undefined) return undefined;
  const text = normalizeWhitespace(caption).replace(/\.$/, '');
  return text.length > 0 ? text : undefined;
}
