import { TEXT_FILE_MAX_BYTES, readRegularFile } from '../core/regular-file.js';
import type { z } from 'zod';

/**
 * The records of a JSONL file a run appended to (a run folder's `cases.jsonl`, `raw-trials.jsonl`),
 * each checked against `schema`; undefined when the file cannot be read. A run killed hard may leave
 * its last line torn, and a folder may hold another version's lines (or a device or FIFO in a file's
 * place, which is not read: undefined): a line that is not a whole,
 * valid record is skipped, never an error.
 */
export async function readJsonlRecords<S extends z.ZodType>(path: string, schema: S): Promise<Array<z.infer<S>> | undefined> {
  let text: string;
  try {
    text = (await readRegularFile(path, TEXT_FILE_MAX_BYTES)).toString('utf8');
  } catch {
    return undefined;
  }
  const records: Array<z.infer<S>> = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
  }
  return records;
}
