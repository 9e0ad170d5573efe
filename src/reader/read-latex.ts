import { algorithmicText } from './latex-algorithmic.js';
import { findEnvironmentEnd, readGroup } from './latex-groups.js';
import { flattenLatex } from './latex-includes.js';
import { cleanLatexInline, referenceMarkerPattern } from './latex-inline.js';
import { expandMacros, extractMacros } from './latex-macros.js';
import { skipColumnSpecification, tabularRows } from './latex-tabular.js';
import { DocumentBuilder } from './document-builder.js';
import { displayEquation, isDisplayMathEnvironment } from './display-math.js';
import type { PaperDocument, PaperTable } from './document.js';
import { normalizeWhitespace } from './normalize.js';

const sectionLevels: Record<string, number> = {
  part: 1,
  chapter: 1,
  section: 1,
  subsection: 2,
  subsubsection: 3,
};
const dropped = new Set(['thebibliography', 'abstract', 'comment', 'figure', 'titlepage']);
const verbatim = new Set(['verbatim', 'lstlisting', 'minted', 'Verbatim']);
const blockPattern =
  /\\(part|chapter|section|subsection|subsubsection)(\*?)\s*(\[[^\]]*\])?\s*\{|\\begin\{([a-zA-Z]+)(\*?)\}|\$\$|(?<!\\)\\\[|\\appendix\b|\\paragraph\*?\s*\{/g;

/** Numbers for \ref: sections hierarchically, equations, tables, algorithms, figures. */
class Counters {
  readonly labels = new Map<string, string>();
  private readonly section = [0, 0, 0];
  private appendix = false;
  private equation = 0;
  private table = 0;
  private algorithm = 0;
  private figure = 0;
  current = '';

  startAppendix(): void {
    this.appendix = true;
    this.section[0] = 0;
  }

  nextSection(level: number): string {
    const index = level - 1;
    this.section[index] = (this.section[index] ?? 0) + 1;
    for (let deeper = index + 1; deeper < this.section.length; deeper += 1)
      this.section[deeper] = 0;
    const top = this.section[0] ?? 0;
    const first = this.appendix ? String.fromCharCode(64 + top) : String(top);
    this.current = [first, ...this.section.slice(1, level)].join('.');
    return this.current;
  }

  isAppendix(): boolean {
    return this.appendix;
  }

  next(kind: 'equation' | 'table' | 'algorithm' | 'figure'): string {
    this[kind] += 1;
    return String(this[kind]);
  }

  /** Records the labels in a piece of LaTeX as naming `number`. */
  label(text: string, number: string): void {
    for (const match of text.matchAll(/\\label\s*\{([^}]*)\}/g)) {
      this.labels.set((match[1] ?? '').trim(), number);
    }
  }
}

function caption(body: string): string | undefined {
  const start = /\\caption\*?\s*(\[[^\]]*\])?\s*/.exec(body);
  if (!start) return undefined;
  const group = readGroup(body, start.index + start[0].length);
  return group ? normalizeWhitespace(cleanLatexInline(group.content)) : undefined;
}

class LatexParser {
  readonly builder = new DocumentBuilder();
  readonly counters = new Counters();

  parse(text: string): void {
    let last = 0;
    const pattern = new RegExp(blockPattern.source, 'g');
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      this.paragraphs(text.slice(last, match.index));
      last = this.block(text, match);
      pattern.lastIndex = last;
    }
    this.paragraphs(text.slice(last));
  }

  private paragraphs(text: string): void {
    this.counters.label(text, this.counters.current);
    for (const paragraph of text.split(/\n\s*\n|\\par\b/)) {
      const clean = cleanLatexInline(paragraph);
      if (clean.length > 0) this.builder.paragraph(clean.replace(/\n+/g, '\n'));
    }
  }

  /** Handles one block starting at `match`; returns where the text after it begins. */
  private block(text: string, match: RegExpExecArray): number {
    const after = match.index + match[0].length;
    const whole = match[0];
    if (whole.startsWith('\\appendix')) {
      this.counters.startAppendix();
      return after;
    }
    if (whole.startsWith('\\paragraph')) {
      const group = readGroup(text, after - 1);
      if (group) this.builder.paragraph(`**${cleanLatexInline(group.content)}**`);
      return group?.end ?? after;
    }
    if (whole === '$$' || whole === '\\[') {
      const close = whole === '$$' ? '$$' : '\\]';
      const end = text.indexOf(close, after);
      const body = text.slice(after, end < 0 ? text.length : end);
      this.counters.label(body, this.counters.next('equation'));
      this.builder.equation(displayEquation(body));
      return end < 0 ? text.length : end + close.length;
    }
    const command = match[1];
    if (command !== undefined) {
      const group = readGroup(text, after - 1);
      const heading = normalizeWhitespace(cleanLatexInline(group?.content ?? ''));
      const level = sectionLevels[command] ?? 1;
      const starred = match[2] === '*';
      const number = starred ? '' : this.counters.nextSection(level);
      const appendixPrefix =
        this.counters.isAppendix() && level === 1 && !starred ? `Appendix ${number}: ` : '';
      this.builder.heading(`${appendixPrefix}${heading}`, level);
      return group?.end ?? after;
    }
    return this.environment(text, match[4] ?? '', match[5] === '*', after);
  }

  private environment(text: string, name: string, starred: boolean, after: number): number {
    const full = `${name}${starred ? '*' : ''}`;
    const { bodyEnd, end } = findEnvironmentEnd(text, full, after);
    const body = text.slice(after, bodyEnd);
    if (isDisplayMathEnvironment(name)) {
      if (!starred) this.counters.label(body, this.counters.next('equation'));
      this.builder.equation(displayEquation(body, name));
    } else if (name === 'table') {
      this.counters.label(body, this.counters.next('table'));
      const tables = this.tables(body);
      const tableCaption = caption(body);
      for (const table of tables) this.builder.table({ ...table, caption: tableCaption });
    } else if (name === 'tabular' || name === 'tabularx' || name === 'longtable') {
      for (const table of this.tables(`\\begin{${full}}${body}\\end{${full}}`)) {
        this.builder.table(table);
      }
    } else if (name === 'algorithm') {
      this.counters.label(body, this.counters.next('algorithm'));
      const inner = /\\begin\{algorithmic\}(\[[^\]]*\])?/.exec(body);
      const steps = inner
        ? body.slice(
            inner.index + inner[0].length,
            findEnvironmentEnd(body, 'algorithmic', inner.index + inner[0].length).bodyEnd,
          )
        : body.replace(/\\caption\*?\s*\{[^}]*\}/, '');
      this.builder.algorithm({ caption: caption(body), text: algorithmicText(steps) });
    } else if (name === 'algorithmic') {
      this.builder.algorithm({ text: algorithmicText(body.replace(/^\s*\[[^\]]*\]/, '')) });
    } else if (name === 'figure') {
      this.counters.label(body, this.counters.next('figure'));
      const figureCaption = caption(body);
      if (figureCaption !== undefined) this.builder.paragraph(`Figure: ${figureCaption}`);
    } else if (verbatim.has(name)) {
      this.builder.paragraph(
        `\`\`\`\n${body.replace(/^\s*(\[[^\]]*\])?(\{[^}]*\})?\n/, '')}\n\`\`\``,
      );
    } else if (name === 'itemize' || name === 'enumerate' || name === 'description') {
      const items = body.split(/\\item\b/).slice(1);
      const lines = items.map((item, index) => {
        const bullet = name === 'enumerate' ? `${index + 1}.` : '-';
        return `${bullet} ${cleanLatexInline(item).replace(/\s+/g, ' ')}`;
      });
      this.counters.label(body, this.counters.current);
      if (lines.length > 0) this.builder.paragraph(lines.join('\n'));
    } else if (name === 'multicols') {
      // `\begin{multicols}{2}[text set full width above the columns]`: the count is layout.
      const count = /^\s*\{\d+\}/.exec(body);
      const rest = body.slice(count?.[0].length ?? 0);
      const preface = readGroup(rest, rest.search(/\S|$/), '[', ']');
      if (preface !== undefined) this.parse(preface.content);
      this.parse(preface === undefined ? rest : rest.slice(preface.end));
    } else if (!dropped.has(name)) {
      this.parse(body);
    }
    return end;
  }

  private tables(body: string): PaperTable[] {
    const tables: PaperTable[] = [];
    const pattern = /\\begin\{(tabular|tabularx|longtable)(\*?)\}/g;
    for (let match = pattern.exec(body); match; match = pattern.exec(body)) {
      const name = `${match[1] ?? 'tabular'}${match[2] ?? ''}`;
      const start = match.index + match[0].length;
      const { bodyEnd, end } = findEnvironmentEnd(body, name, start);
      const starred = match[2] === '*' || match[1] === 'tabularx';
      tables.push({
        rows: tabularRows(skipColumnSpecification(body.slice(start, bodyEnd), starred)),
      });
      pattern.lastIndex = end;
    }
    return tables;
  }
}

function command(source: string, name: string): string | undefined {
  const start = new RegExp(`\\\\${name}\\s*(\\[[^\\]]*\\])?\\s*(?=\\{)`).exec(source);
  if (!start) return undefined;
  return readGroup(source, start.index + start[0].length)?.content;
}

function authorsOf(source: string): string[] {
  const authors = command(source, 'author');
  if (authors === undefined) return [];
  return authors
    .split(/\\and\b|\\And\b|\\AND\b/)
    .map((block) => block.replace(/\\thanks\s*\{[^}]*\}/g, '').split(/\\\\/)[0] ?? '')
    .map((name) => normalizeWhitespace(cleanLatexInline(name)).replace(/[,;]$/, ''))
    .filter((name) => name.length > 0);
}

function replaceReferences(text: string, labels: Map<string, string>): string {
  return text.replace(referenceMarkerPattern, (_whole, kind: string, label: string) => {
    const number = labels.get(label) ?? label;
    return kind === 'eqref' ? `(${number})` : number;
  });
}

/** Reads LaTeX source (already flattened) into a document. */
export function parseLatex(source: string, path: string): PaperDocument {
  const { text, macros } = extractMacros(source);
  const expanded = expandMacros(text, macros);
  const begin = /\\begin\{document\}/.exec(expanded);
  const endIndex = expanded.search(/\\end\{document\}/);
  const body = expanded.slice(
    begin ? begin.index + begin[0].length : 0,
    endIndex >= 0 ? endIndex : expanded.length,
  );
  const parser = new LatexParser();
  parser.builder.title = cleanLatexInline(command(expanded, 'title') ?? '').replace(/\n/g, ' ');
  parser.builder.authors = authorsOf(expanded);
  const abstractStart = /\\begin\{abstract\}/.exec(body);
  if (abstractStart) {
    const from = abstractStart.index + abstractStart[0].length;
    parser.builder.abstract = cleanLatexInline(
      body.slice(from, findEnvironmentEnd(body, 'abstract', from).bodyEnd),
    );
  }
  parser.parse(
    body
      .replace(/\\maketitle\b/g, '')
      .replace(/\\(bibliography|bibliographystyle)\s*\{[^}]*\}/g, ''),
  );
  const document = parser.builder.build({ format: 'latex', path });
  const labels = parser.counters.labels;
  return {
    ...document,
    abstract: replaceReferences(document.abstract, labels),
    sections: document.sections.map((section) => ({
      ...section,
      text: replaceReferences(section.text, labels),
      algorithms: section.algorithms.map((algorithm) => ({
        ...algorithm,
        text: replaceReferences(algorithm.text, labels),
      })),
    })),
  };
}

/** Reads a main .tex file, resolving \input and \include relative to it. */
export async function readLatex(mainPath: string): Promise<PaperDocument> {
  return parseLatex(await flattenLatex(mainPath), mainPath);
}
