import { describe, expect, it } from 'vitest';
import { applyEditBlocks, parseEditBlocks } from './edit-blocks.js';

const file = [
  'import torch',
  '',
  'def train_step(model, batch):',
  '    loss = model(batch)',
  '    loss.backward()',
  '    return loss',
  '',
  'def main():',
  '    print("accuracy: 0.5")',
];

const block = (search: string, replace: string) =>
  `<<<<<<< SEARCH\n${search}\n=======\n${replace === '' ? '' : `${replace}\n`}>>>>>>> REPLACE`;

describe('edit blocks', () => {
  it('reads each block of an answer, in order, with the sentences around them ignored', () => {
    const answer = [
      'Two changes:',
      '```python',
      block('    loss = model(batch)', '    loss = model(batch) / 2'),
      '```',
      block('def main():', 'def main() -> None:'),
    ].join('\n');
    expect(parseEditBlocks(answer)).toEqual([
      { search: ['    loss = model(batch)'], replace: ['    loss = model(batch) / 2'] },
      { search: ['def main():'], replace: ['def main() -> None:'] },
    ]);
    expect(parseEditBlocks('```python\nprint(1)\n```')).toBeUndefined();
    // Written indented as a whole, as under a list item: the markers' indentation comes off.
    const indented = block('    if x:\n        y()', '    if x:\n        z()')
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n');
    expect(parseEditBlocks(indented)).toEqual([
      { search: ['    if x:', '        y()'], replace: ['    if x:', '        z()'] },
    ]);
  });

  it('replaces, inserts and deletes lines, each block searched in the file the blocks before it left', () => {
    const blocks = parseEditBlocks(
      [
        block(
          '    loss.backward()',
          '    loss.backward()\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)',
        ),
        block('    clip_grad_norm_ = None', 'x'),
      ].join('\n'),
    );
    expect(blocks).toHaveLength(2);
    const first = applyEditBlocks(file, blocks?.slice(0, 1) ?? []);
    expect(first).toEqual({
      lines: [
        ...file.slice(0, 5),
        '    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)',
        ...file.slice(5),
      ],
    });
    const deleted = applyEditBlocks(file, parseEditBlocks(block('\ndef main():', '')) ?? []);
    expect(deleted).toEqual({ lines: [...file.slice(0, 6), '    print("accuracy: 0.5")'] });
  });

  it('takes off line numbers copied from the listing, and ignores trailing blanks', () => {
    const blocks = parseEditBlocks(
      block(
        '4:     loss = model(batch)   \n5:     loss.backward()',
        '    loss = model(batch).mean()\n    loss.backward()',
      ),
    );
    expect(applyEditBlocks(file, blocks ?? [])).toEqual({
      lines: [...file.slice(0, 3), '    loss = model(batch).mean()', ...file.slice(4)],
    });
  });

  it('names the block that matches no place, or two, and an empty SEARCH part', () => {
    const missing = applyEditBlocks(file, parseEditBlocks(block('    loss = model(x)', 'y')) ?? []);
    expect(missing).toEqual({
      problem: expect.stringContaining('(starting `loss = model(x)`) is not in the file') as string,
    });
    const twice = applyEditBlocks(file, parseEditBlocks(block('', 'y')) ?? []);
    expect(twice).toEqual({ problem: expect.stringContaining('empty SEARCH part') as string });
    const ambiguous = applyEditBlocks(
      [...file, '    loss.backward()'],
      parseEditBlocks(block('    loss.backward()', '    pass')) ?? [],
    );
    expect(ambiguous).toEqual({ problem: expect.stringContaining('matches 2 places') as string });
  });
});
