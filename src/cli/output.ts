// What the key commands print: aligned columns for a person, JSON for a script (`--json`).
import type { Writable } from 'node:stream';

export interface Output {
  out: Writable;
  err: Writable;
}

export const processOutput = (): Output => ({ out: process.stdout, err: process.stderr });

export function writeJson(output: Output, value: unknown): void {
  output.out.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** One JSON object per line (`--follow --json`), so a script can read the stream as it comes. */
export function writeJsonLine(output: Output, value: unknown): void {
  output.out.write(`${JSON.stringify(value)}\n`);
}

/** Columns padded to their widest cell; an empty cell shows as `-`. */
export function writeTable(output: Output, headers: string[], rows: (string | number | undefined | null)[][]): void {
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === undefined || cell === null || cell === '' ? '-' : String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  for (const row of cells) output.out.write(`${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')}\n`);
}
