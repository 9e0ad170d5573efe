/** The formats codify reads papers from. */
export const paperFormats = ['pdf', 'latex', 'markdown', 'text'] as const;
export type PaperFormat = (typeof paperFormats)[number];

export interface PaperTable {
  caption?: string;
  /** Cells row by row (header first); empty when only the raw text could be recovered. */
  rows: string[][];
  /** The table as found, when its cells could not be separated. */
  raw?: string;
}

export interface PaperAlgorithm {
  caption?: string;
  /** The steps, one per line, indentation kept. */
  text: string;
}

export interface PaperSection {
  heading: string;
  /** 1 for a section, 2 for a subsection, 3 for a subsubsection. */
  level: number;
  /**
   * The body as Markdown, in reading order: paragraphs, display equations as `$$ … $$`
   * lines, tables as pipe tables, algorithms as fenced blocks. The lists below hold the
   * same equations, tables and algorithms as structured data.
   */
  text: string;
  /** Display equations as LaTeX source, whitespace normalized. */
  equations: string[];
  tables: PaperTable[];
  algorithms: PaperAlgorithm[];
}

/**
 * One paper, whatever format it came in. Plain data (JSON-serializable) so runs can
 * save it. The references section is dropped; appendices are kept as sections.
 */
export interface PaperDocument {
  title: string;
  authors: string[];
  abstract: string;
  sections: PaperSection[];
  source: PaperSource;
}

/** Where a document was read from: its format and the path as given. */
export interface PaperSource {
  format: PaperFormat;
  path: string;
}

/** An empty section to fill in. */
export function emptySection(heading: string, level: number): PaperSection {
  return { heading, level, text: '', equations: [], tables: [], algorithms: [] };
}
