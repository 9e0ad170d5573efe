import { useEffect, useMemo, useState } from 'react';
import { mathSegments } from '../model/math-segments.js';

type Katex = typeof import('./katex-module.js').katex;

/**
 * Text with LaTeX math drawn by KaTeX (bundled, loaded only where math is shown). KaTeX
 * escapes what it draws and, without `trust`, allows no links, classes or styles from the
 * source; math it cannot parse stays as written, in red.
 */
export function MathText({ text }: { text: string }) {
  const segments = useMemo(() => mathSegments(text), [text]);
  const hasMath = segments.some((segment) => segment.kind === 'math');
  const [katex, setKatex] = useState<Katex | undefined>(undefined);
  useEffect(() => {
    if (!hasMath) return;
    let current = true;
    void import('./katex-module.js').then((module) => {
      if (current) setKatex(() => module.katex);
    });
    return () => {
      current = false;
    };
  }, [hasMath]);
  return (
    <span className="math-text">
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          <span key={index}>{segment.text}</span>
        ) : katex === undefined ? (
          <code key={index}>{segment.source}</code>
        ) : (
          <span
            key={index}
            className="math"
            dangerouslySetInnerHTML={{
              __html: katex.renderToString(segment.tex, {
                displayMode: segment.display,
                throwOnError: false,
                trust: false,
                output: 'htmlAndMathml',
              }),
            }}
          />
        ),
      )}
    </span>
  );
}
