import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { FileReadError, UserError } from '../core/errors.js';
import { TEXT_FILE_MAX_BYTES, openRegularFile, readOpenedFile, readOpenedHead, type OpenedRegularFile } from '../core/regular-file.js';
import { csvHeader, csvRecordLines } from './csv-header.js';
import { parseYamlText } from './yaml-text.js';
import { refuseUtf16 } from '../core/text-encoding.js';

/** One row of a dataset as read: its fields, its 1-based row number and, for files, its line. */
export interface DatasetRow {
  value: Record<string, unknown>;
  row: number;
  line: number | undefined;
}

export const DATASET_EXTENSIONS = ['.jsonl', '.csv', '.json', '.yaml', '.yml'];

/**
 * Reads a dataset file row by row. JSONL and CSV stream, one row held at a time; `.json` and `.yaml`
 * are whole documents and are read whole. `written` is the path as the suite gives it; `noun` names
 * the file in messages (calibration labels are read by the same rules).
 */
export async function* readDatasetFile(path: string, file: string, written: string, noun = 'dataset'): AsyncGenerator<DatasetRow> {
  const ext = extname(path).toLowerCase();
  if (!DATASET_EXTENSIONS.includes(ext)) throw new UserError(`a dataset is .jsonl, .csv, .json or .yaml (got ${ext || 'no extension'})`, { file });
  // A regular file (never a device or FIFO, which would be read without end), read from the descriptor checked.
  let opened: OpenedRegularFile;
  try {
    opened = await openRegularFile(path);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new UserError(err.problem === 'missing' ? `${noun} "${written}" not found (resolved to ${path})` : `${noun} "${written}" ${err.message}`, { file });
  }
  // Its first bytes, before any parser sees them: a file saved as UTF-16 is said so, not parsed as garbage.
  try {
    refuseUtf16(await readOpenedHead(opened, 64), file);
  } catch (err) {
    await opened.handle.close();
    throw err;
  }
  const parse = ext === '.jsonl' ? jsonlRows : ext === '.csv' ? csvRows : undefined;
  if (parse) {
    // Streamed no further than the size checked: a file that grows meanwhile is read as it was.
    if (opened.size === 0) await opened.handle.close();
    const stream = opened.size === 0 ? Readable.from([]) : opened.handle.createReadStream({ start: 0, end: opened.size - 1 });
    try {
      yield* parse(stream, file);
    } finally {
      stream.destroy();
    }
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readOpenedFile(opened, TEXT_FILE_MAX_BYTES);
  } catch (err) {
    throw err instanceof FileReadError ? new UserError(`${noun} "${written}" ${err.message}`, { file }) : err;
  } finally {
    await opened.handle.close();
  }
  if (ext === '.json') yield* arrayRows(jsonArray(bytes.toString('utf8'), file, noun), file);
  else yield* arrayRows(await yamlArray(bytes.toString('utf8'), file, noun), file);
}

async function* arrayRows(raw: Rows, file: string): AsyncGenerator<DatasetRow> {
  let row = 0;
  for (const { value, line } of raw) yield objectRow(value, ++row, line, file);
}

/** Rows given in code (a TypeScript suite's array or async iterable). */
export async function* iterableRows(rows: Iterable<unknown> | AsyncIterable<unknown>, file: string): AsyncGenerator<DatasetRow> {
  let row = 0;
  for await (const value of rows) yield objectRow(value, ++row, undefined, file);
}

function objectRow(value: unknown, row: number, line: number | undefined, file: string): DatasetRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UserError(`row ${row} is not an object`, { file, ...(line ? { line } : {}) });
  return { value: value as Record<string, unknown>, row, line };
}

async function* jsonlRows(input: Readable, file: string): AsyncGenerator<DatasetRow> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let row = 0;
  for await (const text of lines) {
    lineNo += 1;
    // A byte-order mark some editors write is not part of the first row (CSV drops it too).
    const source = lineNo === 1 ? text.replace(/^\uFEFF/, '') : text;
    if (source.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (err) {
      lines.close();
      throw new UserError(`line ${lineNo} is not JSON: ${(err as Error).message}`, { file, line: lineNo });
    }
    yield objectRow(value, ++row, lineNo, file);
  }
}

/** CSV with a header row; empty cells are absent fields. */
async function* csvRows(input: Readable, file: string): AsyncGenerator<DatasetRow> {
  const parser = input.pipe(parseCsv({ columns: csvHeader(file), info: true, raw: true, skip_empty_lines: true, bom: true }));
  let row = 0;
  const lineOf = csvRecordLines();
  try {
    for await (const rec of parser as AsyncIterable<{ record: Record<string, string>; raw: string; info: { lines: number } }>) {
      // fromEntries defines each field as the row's own, so a `__proto__` column is a field like any other.
      const value: Record<string, unknown> = Object.fromEntries(Object.entries(rec.record).filter(([, cell]) => cell !== ''));
      yield { value, row: ++row, line: lineOf(rec.raw, rec.info.lines) };
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
    const e = err as { code?: string; lines?: number; records?: number; record?: unknown[]; message: string };
    if (e.code === 'CSV_RECORD_INCONSISTENT_COLUMNS') {
      const header = /columns length is (\d+)/.exec(e.message)?.[1];
      // The parser runs ahead of this loop: its own count of records says which row failed.
      throw new UserError(`row ${(e.records ?? row) + 1} has ${e.record?.length ?? '?'} columns, the header has ${header ?? 'a different number'}`, { file, ...(e.lines ? { line: e.lines } : {}) });
    }
    throw new UserError(`not valid CSV: ${e.message}`, { file, ...(e.lines ? { line: e.lines } : {}) });
  }
}

function jsonArray(text: string, file: string, noun: string): Array<{ value: unknown; line: number | undefined }> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UserError(`not JSON: ${(err as Error).message}`, { file });
  }
  if (!Array.isArray(doc)) throw new UserError(`a JSON ${noun} is an array of rows`, { file });
  return (doc as unknown[]).map((value) => ({ value, line: undefined }));
}

type Rows = Array<{ value: unknown; line: number | undefined }>;

/**
 * A YAML list of rows, read by the same rules as an eval file (aliases expanded under the same
 * bound), each row with the line it starts on.
 */
async function yamlArray(text: string, file: string, noun: string): Promise<Rows> {
  // js-yaml reports each node's start ('open') and finished value ('close'); an aliased row is the
  // anchor's own object, so it takes the anchor's line.
  const opened: number[] = [];
  const lineOf = new Map<object, number>();
  const doc = await parseYamlText(text, file, (event, state) => {
    if (event === 'open') opened.push(state.line + 1);
    else {
      const line = opened.pop();
      const result: unknown = state.result;
      if (line !== undefined && typeof result === 'object' && result !== null && !lineOf.has(result)) lineOf.set(result, line);
    }
  });
  if (!Array.isArray(doc)) throw new UserError(`a YAML ${noun} is a list of rows`, { file });
  return (doc as unknown[]).map((value) => ({ value, line: typeof value === 'object' && value !== null ? lineOf.get(value) : undefined }));
}
