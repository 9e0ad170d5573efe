/** The result of reading a model's Action Input as JSON. */
export type JsonReadResult =
  { ok: true; value: unknown; repaired: boolean } | { ok: false; reason: string };

const fencePattern = /```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/;

/** The text inside the first code fence, or the text itself. */
function withoutFence(text: string): string {
  const match = fencePattern.exec(text);
  return match?.[1] ?? text;
}

/**
 * The first balanced `{...}` of the text (strings and triple-quoted strings respected), so a
 * prose line before or after the object is dropped; undefined when there is no `{`.
 */
function objectSpan(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let index = start;
  while (index < text.length) {
    const character = text[index];
    if (character === '"' || character === "'") {
      const triple = text.startsWith(character.repeat(3), index);
      const quote = triple ? character.repeat(3) : character;
      index += quote.length;
      while (index < text.length && !text.startsWith(quote, index)) {
        index += text[index] === '\\' ? 2 : 1;
      }
      index += quote.length;
      continue;
    }
    if (character === '{' || character === '[') depth += 1;
    if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
    index += 1;
  }
  const lastBrace = text.lastIndexOf('}');
  return lastBrace > start ? text.slice(start, lastBrace + 1) : text.slice(start);
}

const escapes: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Reads a quoted string starting at `index`; returns its JSON form and where it ended. */
function readString(text: string, index: number): { json: string; end: number } {
  const quoteCharacter = text[index] ?? '"';
  const triple = text.startsWith(quoteCharacter.repeat(3), index);
  if (triple) {
    const close = text.indexOf(quoteCharacter.repeat(3), index + 3);
    const end = close < 0 ? text.length : close + 3;
    const raw = text.slice(index + 3, close < 0 ? text.length : close);
    return { json: JSON.stringify(raw), end };
  }
  let json = '"';
  let position = index + 1;
  while (position < text.length) {
    const character = text[position] ?? '';
    if (character === quoteCharacter) return { json: `${json}"`, end: position + 1 };
    if (character === '\\') {
      const next = text[position + 1] ?? '';
      // \' is not a JSON escape: an apostrophe needs none.
      json += next === "'" ? "'" : `\\${next}`;
      position += 2;
      continue;
    }
    if (character === '"') json += '\\"';
    else json += escapes[character] ?? character;
    position += 1;
  }
  return { json: `${json}"`, end: position };
}

const literalWords: Record<string, string> = {
  True: 'true',
  False: 'false',
  None: 'null',
  true: 'true',
  false: 'false',
  null: 'null',
};

/**
 * Rewrites near-JSON into JSON in one pass: single-quoted and triple-quoted strings, raw
 * newlines inside strings, unquoted keys, Python literals and trailing commas.
 */
function normalize(text: string): string {
  let output = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index] ?? '';
    if (character === '"' || character === "'") {
      const read = readString(text, index);
      output += read.json;
      index = read.end;
      continue;
    }
    if (character === ',') {
      const rest = text.slice(index + 1).trimStart();
      if (rest.startsWith('}') || rest.startsWith(']')) {
        index += 1;
        continue;
      }
    }
    const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(index))?.[0];
    if (word !== undefined) {
      const after = text.slice(index + word.length).trimStart();
      const literal = literalWords[word];
      output += after.startsWith(':') ? JSON.stringify(word) : (literal ?? word);
      index += word.length;
      continue;
    }
    output += character;
    index += 1;
  }
  return output;
}

/**
 * Reads an Action Input as a JSON object, repairing the slips models commonly make.
 * The reason on failure quotes the parser's complaint.
 */
export function readJsonObject(text: string): JsonReadResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'the Action Input is empty' };
  const span = objectSpan(withoutFence(trimmed));
  if (span === undefined) {
    return { ok: false, reason: 'the Action Input has no JSON object (no `{`)' };
  }
  let firstError = '';
  for (const [candidate, repaired] of [
    [span, false],
    [normalize(span), true],
  ] as const) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { ok: false, reason: 'the Action Input must be a JSON object' };
      }
      return { ok: true, value, repaired: repaired || span !== trimmed };
    } catch (error) {
      if (firstError === '') firstError = error instanceof Error ? error.message : String(error);
    }
  }
  return { ok: false, reason: `the Action Input is not valid JSON: ${firstError}` };
}
