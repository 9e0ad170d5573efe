import { describe, expect, it } from 'vitest';
import { mermaidSourceToDraw } from '../../web/src/model/mermaid-source.js';

describe('mermaidSourceToDraw', () => {
  it("keeps Python's double underscores in a class diagram from becoming bold markup", () => {
    const source =
      'classDiagram\n  class Model {\n    +__init__(self, hidden: int)\n    +forward(x)\n  }';
    expect(mermaidSourceToDraw(source)).toBe(
      'classDiagram\n  class Model {\n    +#95;#95;init#95;#95;(self, hidden: int)\n    +forward(x)\n  }',
    );
  });

  it('leaves directives, comments and other diagrams alone', () => {
    const withDirective =
      '%%{init: {"theme": "base"}}%%\nclassDiagram\n  %% a __note__\n  A : +__len__()';
    expect(mermaidSourceToDraw(withDirective)).toBe(
      '%%{init: {"theme": "base"}}%%\nclassDiagram\n  %% a __note__\n  A : +#95;#95;len#95;#95;()',
    );
    const sequence = 'sequenceDiagram\n  A->>B: __call__()';
    expect(mermaidSourceToDraw(sequence)).toBe(sequence);
  });
});
