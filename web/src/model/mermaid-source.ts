/**
 * A class diagram as mermaid should draw it. Mermaid reads `__text__` in a class's members as
 * bold markup, so Python's `__init__` came out as a bold "init": underscores that come in
 * pairs are written as mermaid's entity for `_` (`#95;`), which it draws as the character.
 * Other diagrams, and comment and directive lines (`%%`), are left as they are.
 */
export function mermaidSourceToDraw(source: string): string {
  const firstStatement = source
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('%%'));
  if (firstStatement === undefined || !firstStatement.startsWith('classDiagram')) return source;
  return source
    .split('\n')
    .map((line) => (line.trim().startsWith('%%') ? line : line.replace(/__/g, '#95;#95;')))
    .join('\n');
}
