/** Removes `%` comments (an escaped `\%` stays), keeping line structure. */
export function stripLatexComments(source: string): string {
  return source
    .split('\n')
    .map((line) => {
      for (let index = 0; index < line.length; index += 1) {
        const character = line[index];
        if (character === '\\') {
          index += 1;
          continue;
        }
        if (character === '%') return line.slice(0, index);
      }
      return line;
    })
    .join('\n');
}
