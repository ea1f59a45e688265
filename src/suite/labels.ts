import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { UserError } from '../core/errors.js';

/**
 * One labelled output for `agent-evals calibrate`: what the agent said, what it was asked, and what a
 * human made of it (a score on the calibration's scale and/or a pass/fail verdict).
 */
export const LabelRowSchema = z
  .object({
    /** Names the row in reports (default `line-<n>`); fake-judge fixtures match `calibration/<id>`. */
    id: z.union([z.string().min(1), z.number()]).optional(),
    output: z.string(),
    input: z.string().optional(),
    reference: z.string().optional(),
    instructions: z.string().optional(),
    humanScore: z.number().finite().optional(),
    humanVerdict: z.enum(['pass', 'fail']).optional(),
  })
  .strict();

export type LabelRow = Omit<z.infer<typeof LabelRowSchema>, 'id'> & {
  id: string;
  /** 1-based line of the row in its file. */
  line: number;
};

export interface LabelSet {
  file: string;
  rows: LabelRow[];
  /** Rows with neither humanScore nor humanVerdict, by line: skipped with a warning. */
  unlabelled: number[];
}

/** A labels file (`.jsonl`, `.csv`, `.yaml`/`.yml`): every row checked, errors with file, line and field. */
export function loadLabels(path: string, displayPath = path): LabelSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read the labels file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file: displayPath });
  }
  const ext = extname(path).toLowerCase();
  const raw = ext === '.jsonl' ? jsonlRows(text, displayPath) : ext === '.csv' ? csvRows(text, displayPath) : ext === '.yaml' || ext === '.yml' ? yamlRows(text, displayPath) : undefined;
  if (!raw) throw new UserError(`a labels file is .jsonl, .csv or .yaml (got ${ext || 'no extension'})`, { file: displayPath });
  const rows: LabelRow[] = [];
  const unlabelled: number[] = [];
  const seenIds = new Map<string, number>();
  for (const { value, line } of raw) {
    const parsed = LabelRowSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || undefined;
      const message =
        issue.code === 'unrecognized_keys'
          ? 'unknown field (a row has output, input, reference, instructions, id, humanScore, humanVerdict)'
          : issue.path.length === 0
            ? 'a row is an object'
            : issue.message;
      throw new UserError(message, { file: displayPath, line, ...(field ? { field } : {}) });
    }
    const { id: given, ...row } = parsed.data;
    const id = given === undefined ? `line-${line}` : String(given);
    // Reports and fake-judge fixtures find a row by its id: two rows with one id would be confused.
    const first = seenIds.get(id);
    if (first !== undefined) throw new UserError(`duplicate id "${id}" (first at line ${first}): each row needs its own id`, { file: displayPath, line, field: 'id' });
    seenIds.set(id, line);
    if (row.humanScore === undefined && row.humanVerdict === undefined) unlabelled.push(line);
    else rows.push({ ...row, id, line });
  }
  return { file: displayPath, rows, unlabelled };
}

export interface RawRow {
  value: unknown;
  line: number;
}

function jsonlRows(text: string, file: string): RawRow[] {
  const rows: RawRow[] = [];
  text.split(/\r?\n/).forEach((source, i) => {
    if (source.trim() === '') return;
    try {
      rows.push({ value: JSON.parse(source), line: i + 1 });
    } catch (err) {
      throw new UserError(`not JSON: ${(err as Error).message}`, { file, line: i + 1 });
    }
  });
  return rows;
}

/** CSV with a header row; empty cells are absent fields, and `humanScore` is read as a number. */
function csvRows(text: string, file: string): RawRow[] {
  let records: Array<{ record: Record<string, string>; raw: string; info: { lines: number } }>;
  try {
    // With `info` and `raw`, each record comes wrapped with its line count and source text.
    const parsed: unknown = parseCsv(text, { columns: true, info: true, raw: true, skip_empty_lines: true, bom: true });
    records = parsed as typeof records;
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw new UserError(`not valid CSV: ${(err as Error).message}`, { file, ...(line ? { line } : {}) });
  }
  return records.map(({ record, raw, info }) => {
    const line = csvRecordLine(raw, info.lines);
    const value: Record<string, unknown> = {};
    for (const [key, cell] of Object.entries(record)) {
      if (cell === '') continue;
      if (key === 'humanScore') {
        const n = Number(cell);
        if (cell.trim() === '' || !Number.isFinite(n)) throw new UserError(`not a number: ${JSON.stringify(cell)}`, { file, line, field: key });
        value[key] = n;
      } else value[key] = key === 'humanVerdict' ? cell.trim().toLowerCase() : cell;
    }
    return { value, line };
  });
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

/** A YAML list of rows, each with its line. */
export function yamlRows(text: string, file: string, notAList = 'a YAML labels file is a list of rows'): RawRow[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) throw new UserError(`not valid YAML: ${error.message.split('\n')[0]}`, { file, line: lineCounter.linePos(error.pos[0]).line });
  const seq = doc.contents;
  if (!isSeq(seq)) throw new UserError(notAList, { file });
  return seq.items.map((item) => {
    const line = isMap(item) && item.range ? lineCounter.linePos(item.range[0]).line : 1;
    return { value: (item as { toJSON(): unknown } | null)?.toJSON?.() ?? item, line };
  });
}
