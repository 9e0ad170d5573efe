import { useEffect, useId, useState } from 'react';
import { mermaidSourceToDraw } from '../model/mermaid-source.js';
import { CodeView } from './code-view.js';

type Rendered =
  { state: 'loading' } | { state: 'drawn'; svg: string } | { state: 'failed'; reason: string };

/**
 * A mermaid diagram drawn by mermaid itself, bundled with the app and loaded only when a
 * diagram is shown (it is large). Its `strict` security level sanitizes the SVG; a diagram
 * mermaid cannot parse (the model wrote it) is shown as its source, with mermaid's reason.
 */
export function MermaidDiagram({ source }: { source: string }) {
  const id = `mermaid-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [rendered, setRendered] = useState<Rendered>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    import('mermaid')
      .then(async ({ default: mermaid }) => {
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral' });
        const { svg } = await mermaid.render(id, mermaidSourceToDraw(source));
        if (current) setRendered({ state: 'drawn', svg });
      })
      .catch((error: unknown) => {
        if (current) {
          setRendered({
            state: 'failed',
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      });
    return () => {
      current = false;
    };
  }, [id, source]);
  return (
    <div className="mermaid-diagram" data-state={rendered.state}>
      {rendered.state === 'drawn' ? (
        <div className="mermaid-svg" dangerouslySetInnerHTML={{ __html: rendered.svg }} />
      ) : rendered.state === 'failed' ? (
        <p className="warning">mermaid could not draw this diagram: {rendered.reason}</p>
      ) : null}
      <details className="mermaid-source" open={rendered.state === 'failed'}>
        <summary>mermaid source</summary>
        <CodeView text={source} path="diagram.mmd" />
      </details>
    </div>
  );
}
