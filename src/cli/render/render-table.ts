/** Key/value rows for a final summary: `metric      0.91`. */
export type TableRows = ReadonlyArray<
  readonly [string, string | number | boolean | null | undefined]
>;

/** Renders key/value rows with the values aligned; empty values print as `-`. */
export function renderTable(
  rows: TableRows | Record<string, string | number | boolean | null | undefined>,
): string {
  const entries: TableRows = Array.isArray(rows) ? rows : Object.entries(rows);
  const width = entries.reduce((widest, [key]) => Math.max(widest, key.length), 0);
  return entries
    .map(([key, value]) => {
      const text = value === null || value === undefined || value === '' ? '-' : String(value);
      const [head = '', ...rest] = text.split('\n');
      const continuation = rest.map((line) => `\n${' '.repeat(width + 2)}${line}`).join('');
      return `${key.padEnd(width)}  ${head}${continuation}`;
    })
    .join('\n');
}

/** Renders rows under headers, columns padded to their widest cell; `right` columns align right. */
export function renderColumns(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  right: ReadonlySet<number> = new Set(),
): string {
  const widths = headers.map((header, column) =>
    rows.reduce((widest, row) => Math.max(widest, (row[column] ?? '').length), header.length),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return right.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
