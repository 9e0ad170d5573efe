import type { CellSpan } from './pdf-lines.js';

/**
 * A PDF table's rows with their blank cells put back. A PDF holds no empty cells, so a row
 * that leaves a column blank ("same as the base model", an ablation table's usual way) is
 * read with its later cells shifted left. The row with the most cells gives the columns;
 * each cell of a shorter row goes to the column its centre falls in (the boundary between
 * two columns lies midway between them), and the columns it does not reach are blank. A
 * row whose cells would not land in distinct columns, left to right, stays as read.
 */
export function alignTableColumns(rows: string[][], spans: CellSpan[][]): string[][] {
  let widest = 0;
  rows.forEach((row, index) => {
    if (row.length > (rows[widest]?.length ?? 0)) widest = index;
  });
  const columns = spans[widest];
  if (columns === undefined || columns.length !== rows[widest]?.length) return rows;
  if (rows.every((row) => row.length === columns.length)) return rows;
  const bounds = columns
    .slice(1)
    .map((column, index) => ((columns[index]?.right ?? column.left) + column.left) / 2);
  const columnOf = (span: CellSpan) => {
    const centre = (span.left + span.right) / 2;
    let column = 0;
    while (column < bounds.length && centre > (bounds[column] ?? Infinity)) column += 1;
    return column;
  };
  return rows.map((row, index) => {
    const rowSpans = spans[index];
    if (row.length === columns.length || rowSpans?.length !== row.length) return row;
    const placed = rowSpans.map(columnOf);
    if (placed.some((column, cell) => cell > 0 && column <= (placed[cell - 1] ?? -1))) return row;
    const aligned = columns.map(() => '');
    placed.forEach((column, cell) => (aligned[column] = row[cell] ?? ''));
    return aligned;
  });
}
