/** Where a JSON text first goes wrong: 1-based line and column, and what was expected there. */
export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  problem: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** 1-based line and column of a character offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

/**
 * Scans `text` as JSON and reports the first error (JSON.parse's own message does not
 * always say where). Undefined when the text is valid JSON.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0;
  const describe = (): string =>
    at < text.length ? JSON.stringify(text[at]) : 'the end of the file';
  const skipSpace = (): void => {
    while (at < text.length && ' \t\r\n'.includes(text[at] ?? '')) at += 1;
  };
  const expect = (what: string): never => {
    throw new Stop(at, `expected ${what} but found ${describe()}`);
  };
  const string = (): void => {
    at += 1;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\n') expect('the closing quote of the string');
      at += text[at] === '\\' ? 2 : 1;
    }
    if (at >= text.length) expect('the closing quote of the string');
    at += 1;
  };
  const value = (): void => {
    skipSpace();
    const character = text[at];
    if (character === '{') return container('}', true);
    if (character === '[') return container(']', false);
    if (character === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(at),
    );
    if (!literal)
      expect('a value (a string in double quotes, number, true, false, null, object or array)');
    at += literal?.[0].length ?? 0;
  };
  const container = (close: string, isObject: boolean): void => {
    at += 1;
    skipSpace();
    if (text[at] === close) {
      at += 1;
      return;
    }
    for (;;) {
      if (isObject) {
        skipSpace();
        if (text[at] !== '"') expect('a key in double quotes');
        string();
        skipSpace();
        if (text[at] !== ':') expect('":" after the key');
        at += 1;
      }
      value();
      skipSpace();
      if (text[at] === ',') {
        at += 1;
        continue;
      }
      if (text[at] === close) {
        at += 1;
        return;
      }
      expect(`"," or "${close}"`);
    }
  };
  try {
    value();
    skipSpace();
    if (at < text.length) expect('nothing more after the JSON value');
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), problem: error.problem };
  }
}
