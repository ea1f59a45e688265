import { largest } from '../core/extremes.js';

/** Rows of cells as aligned plain-text lines (each indented two spaces), every column as wide as its widest cell. */
export function alignedRows(rows: readonly (readonly string[])[]): string[] {
  if (!rows.length) return [];
  const widths = rows[0]!.map((_, i) => largest(rows.map((row) => (row[i] ?? '').length)));
  return rows.map(
    (row) =>
      `  ${row
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}`,
  );
}
