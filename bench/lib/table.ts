import type { Table } from "./bench-script.js";

/** A padded plain-text table for the terminal. */
export function textTable(table: Table): string {
  const all = [table.columns, ...table.rows];
  const widths = table.columns.map((_, column) =>
    Math.max(...all.map((row) => (row[column] ?? "").length)),
  );
  const line = (row: string[]): string =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column < (table.textColumns ?? 1) ? cell.padEnd(width) : cell.padStart(width);
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [table.title, line(table.columns), rule, ...table.rows.map(line)].join("\n");
}

/** A GitHub-flavoured Markdown table (figures right-aligned). */
export function markdownTable(table: Table): string {
  const textColumns = table.textColumns ?? 1;
  const escapeCell = (cell: string): string => cell.replaceAll("|", "\\|");
  const row = (cells: string[]): string => `| ${cells.map(escapeCell).join(" | ")} |`;
  const align = table.columns.map((_, column) => (column < textColumns ? ":---" : "---:"));
  return [row(table.columns), `|${align.join("|")}|`, ...table.rows.map(row)].join("\n");
}
