import type { CitedStatement, ProblemAnalysis } from './schemas.js';

/**
 * The same normalization `codify paper` uses to trace config quotes (src/repo/config-yaml.ts):
 * case, punctuation and line breaks do not count, words and numbers do.
 */
export function squashText(text: string): string {
  return (
    text
      .toLowerCase()
      // A full stop between digits is part of a number (0.1); any other is punctuation.
      .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
      .replace(/[^a-z0-9.]+/g, ' ')
      .trim()
  );
}

/** The papers as quotes are checked against: id (P1…), title, headings and full text. */
export interface QuotablePaper {
  id: string;
  title: string;
  headings: string[];
  fullText: string;
}

/** A citation whose quote is not in the paper it names, word for word. */
export interface UnverifiedQuote {
  /** Where it sits, e.g. `gaps[1].citations[0]`. */
  where: string;
  paper: string;
  section: string;
  quote: string;
  reason: string;
}

function checkStatements(
  list: CitedStatement[],
  name: string,
  papers: Map<string, { squashed: string; headings: string[] }>,
): UnverifiedQuote[] {
  const found: UnverifiedQuote[] = [];
  list.forEach((statement, index) => {
    statement.citations.forEach((citation, citationIndex) => {
      const where = `${name}[${index}].citations[${citationIndex}]`;
      const paper = papers.get(citation.paper);
      const base = {
        where,
        paper: citation.paper,
        section: citation.section,
        quote: citation.quote,
      };
      if (paper === undefined) {
        found.push({ ...base, reason: `there is no paper ${citation.paper}` });
      } else if (!paper.squashed.includes(squashText(citation.quote))) {
        found.push({ ...base, reason: `the quote is not in ${citation.paper} word for word` });
      }
    });
  });
  return found;
}

/** Every citation of the analysis whose quote cannot be found in the paper it names. */
export function unverifiedQuotes(
  analysis: ProblemAnalysis,
  papers: readonly QuotablePaper[],
): UnverifiedQuote[] {
  const byId = new Map(
    papers.map((paper) => [
      paper.id,
      { squashed: squashText(paper.fullText), headings: paper.headings },
    ]),
  );
  return [
    ...checkStatements(analysis.tasks, 'tasks', byId),
    ...checkStatements(analysis.gaps, 'gaps', byId),
  ];
}

/** Citations naming a section heading the paper does not have: fixable, so re-asked. */
export function unknownSections(
  analysis: ProblemAnalysis,
  papers: readonly QuotablePaper[],
): string[] {
  const byId = new Map(papers.map((paper) => [paper.id, paper]));
  const problems: string[] = [];
  for (const statement of [...analysis.tasks, ...analysis.gaps]) {
    for (const citation of statement.citations) {
      const paper = byId.get(citation.paper);
      if (paper === undefined) continue;
      // "3 Experimental Setup" and "Experimental Setup" are the same section.
      const heading = (text: string) => squashText(text).replace(/^[\d. ]+/, '');
      const wanted = heading(citation.section);
      const known = ['abstract', ...paper.headings.map(heading)];
      if (!known.includes(wanted)) {
        problems.push(
          `${citation.paper} has no section "${citation.section}" (its sections: ${['Abstract', ...paper.headings].join(', ')})`,
        );
      }
    }
  }
  return [...new Set(problems)];
}
