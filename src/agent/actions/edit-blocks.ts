/**
 * Edit blocks: the editor's answer for a change in a few places of a file, each place as
 * the lines it replaces (SEARCH, copied from the file) and the lines that take their place
 * (REPLACE). The editor writes what changes instead of the whole file again, which for a
 * long script is most of the answer's tokens and of its time.
 */

export interface EditBlock {
  search: string[];
  replace: string[];
}

const blockPattern =
  /^([ \t]*)<{5,9}[ \t]*SEARCH[ \t]*\n([\s\S]*?)^[ \t]*={5,9}[ \t]*\n([\s\S]*?)^[ \t]*>{5,9}[ \t]*REPLACE[ \t]*$/gm;

/**
 * The lines of a block part: its text up to the marker line, without the newline before it,
 * and without the indentation of the markers when every line has it (a block written
 * indented, as under a list item).
 */
function partLines(text: string, indent: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (indent === '' || !lines.every((line) => line === '' || line.startsWith(indent))) return lines;
  return lines.map((line) => line.slice(indent.length));
}

/** The answer's edit blocks in order; undefined when it holds none (a whole file, or nothing). */
export function parseEditBlocks(answer: string): EditBlock[] | undefined {
  const blocks = [...answer.replace(/\r\n/g, '\n').matchAll(blockPattern)].map((match) => ({
    search: partLines(match[2] ?? '', match[1] ?? ''),
    replace: partLines(match[3] ?? '', match[1] ?? ''),
  }));
  return blocks.length === 0 ? undefined : blocks;
}

const numbered = /^\s*\+?\s*\d+: ?/;

/**
 * Line numbers copied from the listing ("  42: x = 1") come off, when every line of the
 * SEARCH part has one: the file's lines never all start that way.
 */
function withoutNumbers(block: EditBlock): EditBlock {
  const all = (lines: string[]) => lines.length > 0 && lines.every((line) => numbered.test(line));
  if (!all(block.search)) return block;
  const strip = (lines: string[]) => lines.map((line) => line.replace(numbered, ''));
  return {
    search: strip(block.search),
    replace: all(block.replace) ? strip(block.replace) : block.replace,
  };
}

/** Where `search` occurs in `lines`, comparing lines without their trailing blanks. */
function occurrences(lines: readonly string[], search: readonly string[]): number[] {
  const wanted = search.map((line) => line.trimEnd());
  const found: number[] = [];
  for (let start = 0; start + wanted.length <= lines.length; start += 1) {
    if (wanted.every((line, offset) => (lines[start + offset] ?? '').trimEnd() === line))
      found.push(start);
  }
  return found;
}

const firstLine = (block: EditBlock) =>
  (block.search.find((line) => line.trim() !== '') ?? '').trim().slice(0, 120);

/**
 * The file with every block applied in turn (each searched in the file as the blocks before
 * it left it), or the first problem, in words the editor can act on.
 */
export function applyEditBlocks(
  lines: readonly string[],
  blocks: readonly EditBlock[],
): { lines: string[] } | { problem: string } {
  let current = [...lines];
  for (const [index, block] of blocks.entries()) {
    const which = blocks.length === 1 ? 'the edit block' : `edit block ${index + 1}`;
    if (block.search.every((line) => line.trim() === '')) {
      return {
        problem: `${which} has an empty SEARCH part; to add lines, copy the line they follow into SEARCH and give it again in REPLACE with the new lines`,
      };
    }
    // Exactly as the file has it; else without line numbers copied from the listing.
    const exact = occurrences(current, block.search);
    const bare = exact.length === 0 ? withoutNumbers(block) : block;
    const found = exact.length === 0 ? occurrences(current, bare.search) : exact;
    if (found.length === 0) {
      return {
        problem: `the SEARCH part of ${which} (starting \`${firstLine(block)}\`) is not in the file; copy the lines exactly as the file has them, without their line numbers`,
      };
    }
    if (found.length > 1) {
      return {
        problem: `the SEARCH part of ${which} (starting \`${firstLine(block)}\`) matches ${found.length} places; add a neighbouring line so that it matches one`,
      };
    }
    const start = found[0] ?? 0;
    current = [
      ...current.slice(0, start),
      ...bare.replace,
      ...current.slice(start + bare.search.length),
    ];
  }
  return { lines: current };
}
