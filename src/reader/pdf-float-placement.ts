import type { BlockAnchor } from './document-builder.js';

/** A float's caption line: "Table 2:", "Figure 3.", "Fig. 1:". */
const floatCaption = /^(Table|Figure|Fig\.)\s+(\d+)\s*[.:]/i;
const floatMention = /\b(Table|Figure|Fig\.)\s+(\d+)/g;

/** A float's key: its kind and number ("figure 3"), the same for "Fig. 3" and "Figure 3". */
function floatKey(kind: string, number: string): string {
  return `${/^t/i.test(kind) ? 'table' : 'figure'} ${number}`;
}

/** The floats a text mentions. */
function mentions(text: string): string[] {
  return [...text.matchAll(floatMention)].map((match) => floatKey(match[1] ?? '', match[2] ?? ''));
}

/** The key of a float whose caption a line starts. */
export function captionKey(text: string): string | undefined {
  const match = floatCaption.exec(text);
  return match === null ? undefined : floatKey(match[1] ?? '', match[2] ?? '');
}

/** Puts a float in the document: at the end, or at an anchor. */
type Put = (at?: BlockAnchor) => void;

/** Where the paragraphs go, and the places between them (DocumentBuilder). */
interface Blocks {
  anchor(): BlockAnchor | undefined;
}

/**
 * Where a PDF's floats (tables, figure captions) go in the document. A float stands in the
 * LaTeX source after the paragraph that first mentions it, while the page prints it
 * wherever it fits: a float read before its mention waits for that paragraph, and one that
 * LaTeX moved to the top or foot of the mention's page or the next goes back after it.
 */
export class FloatPlacement {
  private readonly mentioned = new Set<string>();
  private readonly waiting = new Map<string, Put>();
  /** The index of the last line that mentions each float (captions aside). */
  private readonly lastMention = new Map<string, number>();
  /** Where the paragraph that first mentions each float ends, and on which page. */
  private readonly firstMention = new Map<string, { anchor: BlockAnchor; page: number }>();
  /** The index of the line being read. */
  position = 0;

  constructor(
    private readonly blocks: Blocks,
    lines: { text: string }[],
  ) {
    lines.forEach((line, index) => {
      if (floatCaption.test(line.text)) return;
      for (const key of mentions(line.text)) this.lastMention.set(key, index);
    });
  }

  /** Places a float read on `page` (known by its key when it had a caption). */
  place(key: string | undefined, page: number, put: Put): void {
    if (key === undefined) return put();
    const later = (this.lastMention.get(key) ?? -1) >= this.position;
    const mention = this.firstMention.get(key);
    if (later && !this.mentioned.has(key)) this.waiting.set(key, put);
    else if (mention !== undefined && page - mention.page <= 1) put(mention.anchor);
    else put();
  }

  /** After a paragraph (ending on `page`) went in: the floats it is the first to mention. */
  paragraphPlaced(text: string, page: number): void {
    for (const key of mentions(text)) {
      if (!this.mentioned.has(key)) {
        const anchor = this.blocks.anchor();
        if (anchor !== undefined) this.firstMention.set(key, { anchor, page });
      }
      this.mentioned.add(key);
      const put = this.waiting.get(key);
      if (put === undefined) continue;
      this.waiting.delete(key);
      put();
    }
  }

  /** The floats whose mention never came, at the end. */
  finish(): void {
    for (const put of this.waiting.values()) put();
    this.waiting.clear();
  }
}
