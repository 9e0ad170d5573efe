import { describe, expect, it } from 'vitest';
import { mathSegments } from '../../web/src/model/math-segments.js';

describe('mathSegments', () => {
  it('finds inline and displayed math among text', () => {
    expect(
      mathSegments(
        'we use $\\lambda \\sim \\mathrm{Beta}(\\alpha, \\alpha)$ with $$\\alpha = 0.2$$.',
      ),
    ).toEqual([
      { kind: 'text', text: 'we use ' },
      {
        kind: 'math',
        tex: '\\lambda \\sim \\mathrm{Beta}(\\alpha, \\alpha)',
        display: false,
        source: '$\\lambda \\sim \\mathrm{Beta}(\\alpha, \\alpha)$',
      },
      { kind: 'text', text: ' with ' },
      { kind: 'math', tex: '\\alpha = 0.2', display: true, source: '$$\\alpha = 0.2$$' },
      { kind: 'text', text: '.' },
    ]);
    expect(mathSegments('a \\(x^2\\) and \\[y\\]').map((segment) => segment.kind)).toEqual([
      'text',
      'math',
      'text',
      'math',
    ]);
  });

  it('leaves prices, escaped and unclosed dollars as text', () => {
    expect(mathSegments('costs \\$5 and $3')).toEqual([
      { kind: 'text', text: 'costs \\$5 and $3' },
    ]);
    expect(mathSegments('no math here')).toEqual([{ kind: 'text', text: 'no math here' }]);
  });
});
