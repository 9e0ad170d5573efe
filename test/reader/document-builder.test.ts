import { describe, expect, it } from 'vitest';
import { DocumentBuilder } from '../../src/reader/document-builder.js';

const parts = (builder: DocumentBuilder) =>
  builder.build({ format: 'pdf', path: 'paper.pdf' }).sections.map((section) => ({
    heading: section.heading,
    text: section.text,
    tables: section.tables.map((table) => table.caption),
  }));

describe('DocumentBuilder.tableAt and paragraphAt: a float put back after the paragraph it follows', () => {
  it('puts tables at their anchors, in order, keeping later anchors right', () => {
    const builder = new DocumentBuilder();
    builder.heading('1 Results', 1);
    builder.paragraph('First, see Table 1 and Table 2.');
    const first = builder.anchor();
    builder.paragraph('Then Table 3.');
    const third = builder.anchor();
    builder.paragraph('More text.');
    builder.heading('2 Discussion', 1);
    builder.paragraph('Discussion.');
    if (first === undefined || third === undefined) throw new Error('no anchor');
    builder.tableAt(third, { caption: 'Three', rows: [['c']] });
    builder.tableAt(first, { caption: 'One', rows: [['a']] });
    builder.tableAt(first, { caption: 'Two', rows: [['b']] });
    const [results, discussion] = parts(builder);
    expect(results?.tables).toEqual(['One', 'Two', 'Three']);
    const blocks = results?.text.split('\n\n').filter((part) => !part.startsWith('|'));
    expect(blocks).toEqual([
      'First, see Table 1 and Table 2.',
      'Table: One',
      'Table: Two',
      'Then Table 3.',
      'Table: Three',
      'More text.',
    ]);
    expect(discussion?.text).toBe('Discussion.');
  });

  it('puts a figure caption at an anchor before a table put there later', () => {
    const builder = new DocumentBuilder();
    builder.heading('1 Results', 1);
    builder.paragraph('Figure 1 and Table 1 show it.');
    const anchor = builder.anchor();
    builder.paragraph('Later text.');
    if (anchor === undefined) throw new Error('no anchor');
    builder.paragraphAt(anchor, 'Figure 1: A plot.');
    builder.tableAt(anchor, { caption: 'One', rows: [['a']] });
    const [results] = parts(builder);
    const blocks = results?.text.split('\n\n').filter((part) => !part.startsWith('|'));
    expect(blocks).toEqual([
      'Figure 1 and Table 1 show it.',
      'Figure 1: A plot.',
      'Table: One',
      'Later text.',
    ]);
    expect(results?.tables).toEqual(['One']);
  });

  it('has no anchor before the first heading', () => {
    const builder = new DocumentBuilder();
    builder.paragraph('Abstract text.');
    expect(builder.anchor()).toBeUndefined();
  });
});
