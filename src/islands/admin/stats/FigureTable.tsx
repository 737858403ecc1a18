import type { ReactNode } from "react";

export interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  /** Figures line up on the right. */
  numeric?: boolean;
}

interface Props<Row> {
  caption: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row, index: number) => string;
  emptyText: string;
}

/** One list of figures as a real table with a caption, so a screen reader reads what a chart shows. */
export function FigureTable<Row>({ caption, rows, columns, rowKey, emptyText }: Props<Row>) {
  if (rows.length === 0) {
    return (
      <div className="mt-3">
        {/* Not a heading: the table it stands for has a caption, not a heading, and a lone h4 broke the heading order. */}
        <p className="font-bold">{caption}</p>
        <p className="mt-1 text-slate">{emptyText}</p>
      </div>
    );
  }
  return (
    <div className="admin-scroll mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="admin-table">
        <caption className="text-left font-bold">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.numeric ? "text-right" : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)}>
              {columns.map((column) => (
                <td key={column.label} className={column.numeric ? "text-right tabular-nums" : "break-all"}>
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

export const figure = (value: number) => value.toLocaleString("en-US");
