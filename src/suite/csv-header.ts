import { UserError } from '../core/errors.js';

/**
 * csv-parse's `columns` option for a file with a header row: the names as written, refusing an empty
 * name (its cells would have no field) or a repeated one (the later column would silently replace
 * the earlier).
 */
export function csvHeader(file: string): (header: string[]) => string[] {
  return (header) => {
    const seen = new Map<string, number>();
    header.forEach((name, i) => {
      if (name.trim() === '') throw new UserError(`column ${i + 1} of the CSV header has no name`, { file, line: 1 });
      const first = seen.get(name);
      if (first !== undefined) throw new UserError(`column ${i + 1} of the CSV header repeats column ${first} ("${name}")`, { file, line: 1, field: name });
      seen.set(name, i + 1);
    });
    return header;
  };
}

/** The line a CSV record starts on: info.lines is where it ends, and a quoted cell may span lines. */
export function csvRecordLine(raw: string, endLine: number): number {
  return (
    endLine -
    (raw
      .replace(/^(\r?\n)+/, '')
      .replace(/\r?\n$/, '')
      .match(/\n/g)?.length ?? 0)
  );
}
