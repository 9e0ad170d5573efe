import { replaceTextAccents } from './latex-accents.js';
import { readGroup } from './latex-groups.js';

/** Commands whose argument is the text to keep (`\emph{x}` → `x`). */
const keepArgument = new Set([
  'emph',
  'textbf',
  'textit',
  'texttt',
  'textsc',
  'textrm',
  'textsf',
  'textup',
  'textnormal',
  'underline',
  'mbox',
  'text',
  'url',
  'uline',
  'textsl',
  'hbox',
  'makebox',
  'fbox',
]);
/** Commands dropped with their argument. */
const dropWithArgument = new Set([
  'label',
  'bibliography',
  'bibliographystyle',
  'vspace',
  'hspace',
  'thanks',
  'index',
  'includegraphics',
  'pagestyle',
  'thispagestyle',
  'setlength',
  'addtolength',
  'usepackage',
]);
const citations =
  /^(cite|citep|citet|citealp|citealt|citeauthor|citeyear|parencite|textcite|autocite)$/;
const references = /^(ref|eqref|autoref|cref|Cref|pageref|nameref)$/;

/** Stands for `\ref{label}` until the reader knows the label's number. */
export function referenceMarker(equation: boolean, label: string): string {
  return `\u27e6${equation ? 'eqref' : 'ref'}:${label}\u27e7`;
}
export const referenceMarkerPattern = /\u27e6(eqref|ref):([^\u27e7]*)\u27e7/g;

const markup: Record<string, string> = { emph: '*', textit: '*', textbf: '**', texttt: '`' };

/** Replaces `\name[opt]{arg}` forms in text (not math) with readable Markdown. */
function replaceCommands(text: string): string {
  let result = '';
  let index = 0;
  const pattern = /\\([a-zA-Z]+)\*?/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const name = match[1] ?? '';
    let position = match.index + match[0].length;
    const optional = readGroup(text, position, '[', ']');
    if (optional) position = optional.end;
    const argument = readGroup(text, position);
    let replacement: string | undefined;
    if (name === 'href') {
      const label = argument ? readGroup(text, argument.end) : undefined;
      replacement = label ? replaceCommands(label.content) : '';
      position = label?.end ?? argument?.end ?? position;
    } else if (name === 'footnote' && argument) {
      replacement = ` (${replaceCommands(argument.content)})`;
    } else if (citations.test(name) && argument) {
      replacement = `[${argument.content
        .split(',')
        .map((key) => key.trim())
        .join(', ')}]`;
    } else if (references.test(name) && argument) {
      // Kept as a marker; the reader replaces it with the number once all labels are known.
      replacement = referenceMarker(name === 'eqref', argument.content.trim());
    } else if (keepArgument.has(name) && argument) {
      const wrap = markup[name] ?? '';
      replacement = `${wrap}${replaceCommands(argument.content)}${wrap}`;
    } else if (dropWithArgument.has(name) && argument) {
      replacement = '';
    } else if (argument === undefined) {
      replacement = '';
    } else {
      replacement = replaceCommands(argument.content);
    }
    if (argument && name !== 'href') position = argument.end;
    result += text.slice(index, match.index) + replacement;
    index = position;
    pattern.lastIndex = index;
  }
  return result + text.slice(index);
}

function cleanText(text: string): string {
  const escaped = replaceTextAccents(text.replace(/\\\\(\[[^\]]*\])?/g, '\n'))
    .replace(/\\([%&_#${}])/g, (_whole, character: string) => `\uE000${character}`)
    .replace(/\\(ldots|dots)\b\s*/g, '...')
    .replace(/\\(LaTeX|TeX)\b/g, '$1')
    .replace(/\\[,;: !]/g, ' ');
  return replaceCommands(escaped)
    .replace(/[{}]/g, '')
    .replace(/~/g, ' ')
    .replace(/``|''/g, '"')
    .replace(/---/g, '—')
    .replace(/--/g, '–')
    .replace(/\uE000/g, '')
    .replace(/[ \t]+/g, ' ');
}

/**
 * LaTeX body text to readable Markdown: formatting commands reduced to their text,
 * citations as `[key]`, comments and layout commands gone. Inline math (`$…$`, `\(…\)`)
 * is kept verbatim as `$…$`. References become markers (referenceMarker) for the reader.
 */
export function cleanLatexInline(text: string): string {
  const parts = text.split(/(\$[^$]+\$|\\\([\s\S]*?\\\))/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) {
        return part.startsWith('\\(') ? `$${part.slice(2, -2).trim()}$` : part;
      }
      return cleanText(part);
    })
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
}
