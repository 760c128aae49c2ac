import type { Table } from "../lib/bench-script.js";

export interface StorageRow {
  saver: string;
  turns: number;
  avgBytesPerTurn: number;
  marginalBytesPerTurn: number;
}

const HEADER = /^saver\s{2,}turns\s{2,}/;

function number(cell: string | undefined): number {
  return cell === undefined || cell === "-" ? Number.NaN : Number(cell.replaceAll(",", ""));
}

/**
 * Reads the plain-text table `bench/storage/run.ts` prints (columns separated by two or more
 * spaces, a dashed rule under the header) and the lines after it.
 */
export function parseStorageTable(output: string): {
  table: Table;
  rows: StorageRow[];
  footer: string[];
} {
  const lines = output.split("\n").map((line) => line.trimEnd());
  const start = lines.findIndex((line) => HEADER.test(line));
  if (start < 0) throw new Error(`bench/storage printed no table:\n${output}`);
  const split = (line: string): string[] => line.trim().split(/\s{2,}/);
  const columns = split(lines[start] ?? "");
  const body: string[][] = [];
  let index = start + 2;
  for (; index < lines.length; index++) {
    const cells = split(lines[index] ?? "");
    if (cells.length !== columns.length) break;
    body.push(cells);
  }
  const footer = lines.slice(index).filter((line) => line.trim() !== "");
  return {
    table: { title: "Bytes per turn (from bench/storage)", columns, rows: body, textColumns: 1 },
    rows: body.map((cells) => ({
      saver: cells[0] ?? "",
      turns: number(cells[1]),
      avgBytesPerTurn: number(cells[2]),
      marginalBytesPerTurn: number(cells[3]),
    })),
    footer,
  };
}
