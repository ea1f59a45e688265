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

/**
 * Where each record of one CSV file starts, record after record. csv-parse counts a CRLF inside a
 * quoted cell as two lines (the record's own CRLF as one), so its info.lines drifts by one per such
 * CRLF; the excess is carried from record to record and taken off.
 */
export function csvRecordLines(): (raw: string, endLine: number) => number {
  let doubled = 0;
  return (raw, endLine) => {
    doubled += raw.match(/\r\n/g)?.length ?? 0;
    return csvRecordLine(raw, endLine - doubled);
  };
}
