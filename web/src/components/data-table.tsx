import type { ReactNode } from 'react';

/** One column of a data table: its header and how a row fills its cell. */
export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Numbers are right-aligned. */
  numeric?: boolean;
}

/** A scrollable table of rows, one cell per column. */
export function DataTable<Row>({
  className,
  columns,
  rows,
  rowKey,
}: {
  className: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <div className="table-scroll">
      <table className={className}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index}>{column.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column, index) => (
                <td key={index} className={column.numeric === true ? 'number' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
