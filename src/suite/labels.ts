import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { extname } from 'node:path';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { readDatasetFile } from './dataset-read.js';

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

const LABEL_EXTENSIONS = ['.jsonl', '.csv', '.yaml', '.yml'];

/**
 * A labels file (`.jsonl`, `.csv`, `.yaml`/`.yml`), read by the dataset reader's rules (YAML aliases
 * expanded under the same bound, a JSONL byte-order mark dropped, CSV header names checked, a
 * `__proto__` key refused): every row checked, errors with file, line and field.
 */
export async function loadLabels(path: string, displayPath = path): Promise<LabelSet> {
  const ext = extname(path).toLowerCase();
  if (!LABEL_EXTENSIONS.includes(ext)) throw new UserError(`a labels file is .jsonl, .csv or .yaml (got ${ext || 'no extension'})`, { file: displayPath });
  try {
    await access(path, constants.R_OK);
  } catch (err) {
    throw new UserError(`cannot read the labels file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file: displayPath });
  }
  const rows: LabelRow[] = [];
  const unlabelled: number[] = [];
  const seenIds = new Map<string, number>();
  for await (const read of readDatasetFile(path, displayPath, displayPath, 'labels file')) {
    const line = read.line ?? read.row;
    // CSV cells are text: the score is read as a number, the verdict in any case.
    const value = ext === '.csv' ? csvTyped(read.value, displayPath, line) : read.value;
    const parsed = LabelRowSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || undefined;
      const message = issue.code === 'unrecognized_keys' ? 'unknown field (a row has output, input, reference, instructions, id, humanScore, humanVerdict)' : issue.message;
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

function csvTyped(cells: Record<string, unknown>, file: string, line: number): Record<string, unknown> {
  const value = { ...cells };
  const score = cells.humanScore;
  if (typeof score === 'string') {
    const n = Number(score);
    if (score.trim() === '' || !Number.isFinite(n)) throw new UserError(`not a number: ${JSON.stringify(score)}`, { file, line, field: 'humanScore' });
    value.humanScore = n;
  }
  if (typeof cells.humanVerdict === 'string') value.humanVerdict = cells.humanVerdict.trim().toLowerCase();
  return value;
}
