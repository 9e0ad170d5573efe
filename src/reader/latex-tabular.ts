import { readGroup, skipSpaces } from './latex-groups.js';
import { cleanLatexInline } from './latex-inline.js';

/** Splits on a separator outside braces and not escaped. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\' && !text.startsWith(separator, index)) {
      index += 1;
      continue;
    }
    if (character === '{') depth += 1;
    else if (character === '}') depth -= 1;
    else if (depth === 0 && text.startsWith(separator, index)) {
      parts.push(text.slice(start, index));
      start = index + separator.length;
      index += separator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Rules and spacing: they shape the printed table but are not cell text. Struts such as
 * `\rule{0pt}{2.0ex}` and rules with a thickness (`\toprule[1pt]`, `\specialrule{1pt}{-1pt}{0pt}`)
 * would otherwise leave "0pt2.0ex" in a cell.
 */
const layoutCommands = [
  /\\(hline|toprule|midrule|bottomrule|endhead|endfirsthead|endfoot|endlastfoot|strut|centering|raggedright|raggedleft|hfill|vfill|smallskip|medskip|bigskip|arraybackslash)\b(\s*\[[^\]]*\])?/g,
  /\\(cline|cmidrule)(\s*\[[^\]]*\])?(\s*\([^)]*\))?\s*\{[^}]*\}/g,
  /\\(rule|rulesep)(\s*\[[^\]]*\])?\s*\{[^}]*\}\s*\{[^}]*\}/g,
  /\\specialrule\s*\{[^}]*\}\s*\{[^}]*\}\s*\{[^}]*\}/g,
  /\\(vspace|hspace|vskip|hskip)\*?\s*\{[^}]*\}/g,
  /\\(addlinespace|morecmidrules)\b(\s*\[[^\]]*\])?/g,
  /\\noalign\s*\{[^{}]*(\{[^}]*\}[^{}]*)*\}/g,
  /\\(arrayrulewidth|tabcolsep|arraystretch)\b/g,
];

/** A row without the `[2pt]` left at its start by a `\\[2pt]` line break before it. */
function withoutRowSpacing(row: string): string {
  return row.replace(/^\s*\[\s*-?[\d.]+\s*(pt|ex|em|mm|cm|in|bp)\s*\]/, '');
}

/** The cells of a `tabular` body (after its column specification), row by row. */
export function tabularRows(body: string): string[][] {
  const withoutLayout = layoutCommands.reduce((text, pattern) => text.replace(pattern, ''), body);
  const withoutRules = withoutLayout
    .replace(/\\multicolumn\{[^}]*\}\{[^}]*\}/g, '')
    .replace(/\\multirow\{[^}]*\}\{[^}]*\}/g, '');
  return splitTop(withoutRules, '\\\\')
    .map(withoutRowSpacing)
    .map((row) => splitTop(row, '&').map((cell) => cleanLatexInline(cell).replace(/\s+/g, ' ')))
    .filter((row) => row.some((cell) => cell.length > 0));
}

/** Skips a tabular's column specification (and a `tabular*` width) at the body's start. */
export function skipColumnSpecification(body: string, starred: boolean): string {
  let position = skipSpaces(body, 0);
  if (starred) position = skipSpaces(body, readGroup(body, position)?.end ?? position);
  const optional = readGroup(body, position, '[', ']');
  if (optional) position = skipSpaces(body, optional.end);
  const specification = readGroup(body, position);
  return body.slice(specification?.end ?? position);
}
