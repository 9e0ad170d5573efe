/** Opening minus closing brackets on a line, outside strings and comments. */
export function bracketDepthChange(line: string): number {
  let change = 0;
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index] ?? '';
    if (quote !== undefined) {
      if (character === '\\') index += 1;
      else if (character === quote) quote = undefined;
      continue;
    }
    if (character === '#') break;
    if (character === '"' || character === "'") quote = character;
    else if ('([{'.includes(character)) change += 1;
    else if (')]}'.includes(character)) change -= 1;
  }
  return change;
}
