/** A piece of text a paper quote is made of: plain text, or LaTeX math between delimiters. */
export type TextSegment =
  { kind: 'text'; text: string } | { kind: 'math'; tex: string; display: boolean; source: string };

/**
 * Splits text at LaTeX math: `$…$` and `\(…\)` inline, `$$…$$` and `\[…\]` displayed. A
 * dollar sign with nothing closing it, or `\$`, stays text.
 */
export function mathSegments(text: string): TextSegment[] {
  const pattern =
    /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|(?<!\\)\$([^$\n]+?)(?<!\\)\$/g;
  const segments: TextSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index;
    if (index > at) segments.push({ kind: 'text', text: text.slice(at, index) });
    const display = match[1] !== undefined || match[2] !== undefined;
    const tex = match[1] ?? match[2] ?? match[3] ?? match[4] ?? '';
    segments.push({ kind: 'math', tex: tex.trim(), display, source: match[0] });
    at = index + match[0].length;
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at) });
  return segments;
}
