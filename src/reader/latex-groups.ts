/** A piece of LaTeX read from a position: its content and where reading stopped. */
export interface LatexGroup {
  content: string;
  end: number;
}

export function skipSpaces(text: string, position: number): number {
  let index = position;
  while (index < text.length && /\s/.test(text[index] ?? '')) index += 1;
  return index;
}

/**
 * Reads a group delimited by open/close (`{…}` by default) starting at `position`,
 * counting nesting and skipping escaped delimiters. Undefined if none starts there.
 */
export function readGroup(
  text: string,
  position: number,
  open = '{',
  close = '}',
): LatexGroup | undefined {
  if (text[position] !== open) return undefined;
  let depth = 0;
  for (let index = position; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') {
      index += 1;
      continue;
    }
    if (character === open) depth += 1;
    else if (character === close) {
      depth -= 1;
      if (depth === 0) return { content: text.slice(position + 1, index), end: index + 1 };
    }
  }
  return { content: text.slice(position + 1), end: text.length };
}

/**
 * Reads one macro argument: a braced group, or else a single control sequence or
 * character (TeX's undelimited argument). Leading spaces are skipped.
 */
export function readArgument(text: string, position: number): LatexGroup | undefined {
  const start = skipSpaces(text, position);
  if (start >= text.length) return undefined;
  const group = readGroup(text, start);
  if (group) return group;
  if (text[start] === '}') return undefined;
  const control = /^\\([a-zA-Z]+|.)/.exec(text.slice(start));
  if (control) return { content: control[0], end: start + control[0].length };
  return { content: text[start] ?? '', end: start + 1 };
}

/** The position of the `\end{name}` matching a `\begin{name}` whose body starts at `from`. */
export function findEnvironmentEnd(
  text: string,
  name: string,
  from: number,
): { bodyEnd: number; end: number } {
  const escaped = name.replace(/[*]/g, '\\*');
  const pattern = new RegExp(`\\\\(begin|end)\\{${escaped}\\}`, 'g');
  pattern.lastIndex = from;
  let depth = 1;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    depth += match[1] === 'begin' ? 1 : -1;
    if (depth === 0) return { bodyEnd: match.index, end: match.index + match[0].length };
  }
  return { bodyEnd: text.length, end: text.length };
}
