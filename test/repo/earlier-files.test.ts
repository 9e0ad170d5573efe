import { describe, expect, it } from 'vitest';
import { earlierFilesView } from '../../src/repo/generation.js';

const file = (path: string, body: number) => ({
  path,
  content: `def ${path.replace('.py', '')}_main(x):\n    """Does it."""\n${'    x = x + 1\n'.repeat(body)}    return x\n`,
});

describe('earlierFilesView', () => {
  it('gives earlier files in full while they fit', () => {
    const view = earlierFilesView([file('a.py', 2), file('b.py', 2)], 10_000);
    expect(view.asInterface).toEqual([]);
    expect(view.text).toContain('### a.py\n');
    expect(view.text).toContain('x = x + 1');
  });

  it('switches the oldest files to interfaces once the full text no longer fits', () => {
    const files = [file('a.py', 200), file('b.py', 200), file('c.py', 5)];
    const view = earlierFilesView(files, 2_000);
    expect(view.asInterface).toEqual(['a.py', 'b.py']);
    expect(view.text).toContain('### a.py (interface only: signatures and docstrings)');
    expect(view.text).toContain('def a_main(x):\n    """Does it."""\n    ...');
    expect(view.text).toContain('### c.py\n');
    expect(view.text.length).toBeLessThanOrEqual(2_000);
  });
});
