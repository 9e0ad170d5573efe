import { bareHeading, splitBlocks } from './condensed-paper.js';

export interface PaperSections {
  /** The sections found, each whole with its subsections, in the paper's order. */
  text: string;
  /** The names that matched no heading. */
  unmatched: string[];
}

const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** A name as the design gives it: `Section 4.2 Multi-head attention`, `4.2`, `Appendix B`. */
function nameParts(name: string): { number?: string; appendix?: string; title: string } {
  const trimmed = name
    .trim()
    .replace(/^(section|sec\.|§)\s*/i, '')
    .trim();
  const appendix = /^appendix\s+([A-Z])\b/i.exec(trimmed)?.[1]?.toUpperCase();
  const number = /^(\d+(?:\.\d+)*)\.?(?:\s|$)/.exec(trimmed)?.[1];
  const title = plain(
    trimmed.replace(/^appendix\s+[A-Z]\b\s*[:.]?\s*/i, '').replace(/^\d+(?:\.\d+)*\.?\s*/, ''),
  );
  return {
    ...(number === undefined ? {} : { number }),
    ...(appendix === undefined ? {} : { appendix }),
    title,
  };
}

function headingMatches(heading: string, name: string): boolean {
  const wanted = nameParts(name);
  const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1];
  if (wanted.number !== undefined && number !== undefined) return wanted.number === number;
  const appendix = /^appendix\s+([A-Z])\b/i.exec(heading)?.[1]?.toUpperCase();
  if (wanted.appendix !== undefined && appendix !== undefined)
    return (
      wanted.appendix === appendix && (wanted.title === '' || plain(heading).includes(wanted.title))
    );
  const title = plain(bareHeading(heading).replace(/^appendix\s+[A-Z]\b\s*[:.]?\s*/i, ''));
  return wanted.title.length > 0 && title === wanted.title;
}

/**
 * The sections of the paper the design names for a file, each whole with its subsections
 * (a heading of a deeper level below it), in the paper's order; a section named twice, or
 * inside another named one, appears once.
 */
export function paperSections(paper: string, names: readonly string[]): PaperSections {
  const { blocks } = splitBlocks(paper);
  const chosen = new Set<number>();
  const unmatched: string[] = [];
  for (const name of names) {
    const start = blocks.findIndex((block) => headingMatches(block.heading, name));
    const first = blocks[start];
    if (first === undefined) {
      unmatched.push(name);
      continue;
    }
    chosen.add(start);
    for (let index = start + 1; index < blocks.length; index++) {
      if ((blocks[index]?.level ?? 0) <= first.level) break;
      chosen.add(index);
    }
  }
  const text = blocks
    .filter((_, index) => chosen.has(index))
    .map((block) => [block.line, ...block.body].join('\n').trim())
    .join('\n\n');
  return { text, unmatched };
}
