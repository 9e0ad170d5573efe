import type { BlockAnchor, DocumentBuilder } from './document-builder.js';
import type { PaperTable } from './document.js';

const tableCaption = /^Table\s+(\d+)\s*[.:]/i;

/** The numbers of the tables a text mentions ("Table 2"). */
function mentions(text: string): string[] {
  return [...text.matchAll(/\bTable\s+(\d+)/g)].map((match) => match[1] ?? '');
}

/**
 * Where a PDF's tables go in the document. A float stands in the LaTeX source after the
 * paragraph that first mentions it, while the page prints it wherever it fits: a table read
 * before its mention waits for that paragraph, and one that LaTeX floated to the top or foot
 * of the mention's page or the next goes back after it.
 */
export class TablePlacement {
  private readonly mentioned = new Set<string>();
  private readonly waiting = new Map<string, PaperTable>();
  /** The index of the last line that mentions each table (captions aside). */
  private readonly lastMention = new Map<string, number>();
  /** Where the paragraph that first mentions each table ends, and on which page. */
  private readonly firstMention = new Map<string, { anchor: BlockAnchor; page: number }>();
  /** The index of the line being read. */
  position = 0;

  constructor(
    private readonly builder: DocumentBuilder,
    lines: { text: string }[],
  ) {
    lines.forEach((line, index) => {
      if (tableCaption.test(line.text)) return;
      for (const number of mentions(line.text)) this.lastMention.set(number, index);
    });
  }

  /** Places a table read on `page` (numbered when it had a caption). */
  place(table: PaperTable, number: string | undefined, page: number): void {
    if (number === undefined) return this.builder.table(table);
    const later = (this.lastMention.get(number) ?? -1) >= this.position;
    const mention = this.firstMention.get(number);
    if (later && !this.mentioned.has(number)) this.waiting.set(number, table);
    else if (mention !== undefined && page - mention.page <= 1) {
      this.builder.tableAt(mention.anchor, table);
    } else this.builder.table(table);
  }

  /** After a paragraph (ending on `page`) went in: the tables it is the first to mention. */
  paragraphPlaced(text: string, page: number): void {
    for (const number of mentions(text)) {
      if (!this.mentioned.has(number)) {
        const anchor = this.builder.anchor();
        if (anchor !== undefined) this.firstMention.set(number, { anchor, page });
      }
      this.mentioned.add(number);
      const table = this.waiting.get(number);
      if (table === undefined) continue;
      this.waiting.delete(number);
      this.builder.table(table);
    }
  }

  /** The tables whose mention never came, at the end. */
  finish(): void {
    for (const table of this.waiting.values()) this.builder.table(table);
    this.waiting.clear();
  }
}
