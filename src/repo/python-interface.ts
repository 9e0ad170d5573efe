import { bracketDepthChange } from '../tasks/python-brackets.js';
/**
 * The interface of a Python file: imports, module constants (whole, however many lines
 * their value spans, and tuple assignments such as `PAD_ID, UNK_ID = 0, 1`), class and
 * function signatures with their docstrings, the fields of classes (a dataclass's
 * annotated attributes), function bodies (nested helpers included) replaced by `...`. Private functions,
 * methods and constants (a leading `_`, dunders such as `__init__` kept) are left out: no
 * other file calls them. Given to later files instead of the full text once the full text
 * no longer fits.
 */
export function pythonInterface(source: string): string {
  const lines = source.split('\n');
  const kept: string[] = [];
  // The indentation of each class whose body the scan is in: its fields are interface too.
  const classes: number[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() !== '') {
      const indent = indentOf(line);
      while (classes.length > 0 && indent <= (classes.at(-1) ?? 0)) classes.pop();
    }
    const definition = /^(\s*)(async\s+def|def|class)\s/.exec(line);
    if (definition) {
      const indent = definition[1] ?? '';
      const header = collectHeader(lines, index);
      const docstring = collectDocstring(lines, header.next);
      const isFunction = !definition[2]?.startsWith('class');
      // A function's body, nested helpers included, is no interface: skip to its end.
      index = isFunction ? endOfBlock(lines, docstring.next, indent.length) : docstring.next;
      if (isFunction && isPrivate(line)) {
        // Its decorators were kept before it was known to be private.
        while (/^\s*@/.test(kept.at(-1) ?? '')) kept.pop();
        continue;
      }
      if (!isFunction) classes.push(indent.length);
      kept.push(...header.lines, ...docstring.lines);
      if (isFunction) kept.push(`${indent}    ...`);
      continue;
    }
    const field = classes.length > 0 && isClassField(line);
    if (
      /^(import |from \S+ import )/.test(line) ||
      (isConstant(line) && !line.startsWith('_')) ||
      field
    ) {
      // A value or a parenthesised import may span lines: keep them all.
      const statement = collectStatement(lines, index);
      kept.push(...statement.lines);
      index = statement.next;
      continue;
    } else if (/^\s*@/.test(line)) {
      kept.push(line);
    }
    index += 1;
  }
  return kept.join('\n').trim();
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The index after a block whose header is indented `indent`: the next line indented no deeper. */
function endOfBlock(lines: string[], start: number, indent: number): number {
  let index = start;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() !== '' && indentOf(line) <= indent) return index;
    index += 1;
  }
  return index;
}

/**
 * A field in a class body (a dataclass's `z_train: np.ndarray`, `lr: float = 0.1`, a class
 * constant): what code elsewhere reads from its instances. Private names are left out.
 */
function isClassField(line: string): boolean {
  return /^\s+[A-Za-z]\w*\s*(:[^=]+(=(?!=).*)?|=(?!=).*)$/.test(line);
}

const constantName = '[A-Z_][A-Z0-9_]*';

/** A `def` whose name has a leading underscore and is no dunder (`_pad`, not `__init__`). */
function isPrivate(line: string): boolean {
  const name = /\bdef\s+(\w+)/.exec(line)?.[1] ?? '';
  return name.startsWith('_') && !/^__\w+__$/.test(name);
}

/** A module-level assignment to one or more UPPER_CASE names (`A = 1`, `A, B = 1, 2`, `A: int = 1`). */
function isConstant(line: string): boolean {
  return new RegExp(`^${constantName}(\\s*,\\s*${constantName})*\\s*(:[^=]+)?=(?!=)`).test(line);
}

/** One statement from `start`: its line and the lines that continue its open brackets. */
function collectStatement(lines: string[], start: number): { lines: string[]; next: number } {
  const statement: string[] = [];
  let depth = 0;
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    statement.push(line);
    depth += bracketDepthChange(line);
    if (depth <= 0 && !line.trimEnd().endsWith('\\')) return { lines: statement, next: index + 1 };
  }
  return { lines: statement, next: lines.length };
}

function collectHeader(lines: string[], start: number): { lines: string[]; next: number } {
  const header: string[] = [];
  let depth = 0;
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    header.push(line);
    for (const character of line.replace(/#.*$/, '')) {
      if ('([{'.includes(character)) depth += 1;
      if (')]}'.includes(character)) depth -= 1;
    }
    if (depth <= 0 && /:\s*(#.*)?$/.test(line)) return { lines: header, next: index + 1 };
    if (depth <= 0 && /:\s*\S/.test(line.replace(/->[^:]*/, '')) && !line.includes('(')) {
      return { lines: header, next: index + 1 };
    }
  }
  return { lines: header, next: lines.length };
}

function collectDocstring(lines: string[], start: number): { lines: string[]; next: number } {
  let index = start;
  while (index < lines.length && (lines[index] ?? '').trim() === '') index += 1;
  const first = (lines[index] ?? '').trim();
  const quote = /^[rRuU]?("""|''')/.exec(first)?.[1];
  if (quote === undefined) return { lines: [], next: start };
  const rest = first.slice(first.indexOf(quote) + 3);
  if (rest.includes(quote)) return { lines: [lines[index] ?? ''], next: index + 1 };
  const docstring: string[] = [lines[index] ?? ''];
  for (let next = index + 1; next < lines.length; next += 1) {
    docstring.push(lines[next] ?? '');
    if ((lines[next] ?? '').includes(quote)) return { lines: docstring, next: next + 1 };
  }
  return { lines: docstring, next: lines.length };
}
