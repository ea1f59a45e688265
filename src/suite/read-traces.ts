import { relative, resolve } from 'node:path';
import { FileReadError, UserError } from '../core/errors.js';
import type { RecordedTrace } from '../core/recorded-trace.js';
import { TEXT_FILE_MAX_BYTES, readRegularFile } from '../core/regular-file.js';
import { refuseUtf16 } from '../core/text-encoding.js';
import { pushAll } from '../core/push-all.js';
import { tracesFromLines } from './trace-lines.js';

export interface TraceReadOptions {
  cwd: string;
  /** Keep a seeded sample of N traces (the same N for the same seed and files). */
  sample?: number;
  seed?: number;
  /** Keep traces that started at or after / before this time (traces without a time are left out when either is set). */
  since?: Date;
  until?: Date;
}

export interface TracesRead {
  /** The traces kept, in the order read (files in the order given, a folder's files sorted). */
  traces: RecordedTrace[];
  /** The files read, as shown to the user. */
  files: string[];
  /** Records read that were not kept, and why (`3 before --since`, `2 without an input and a reply`). */
  notes: string[];
}

/**
 * Reads recorded agent runs from files and folders for `agent-evals score`. Bad input (no such file, no
 * known format, nothing to score) is a UserError naming the file and what was expected.
 */
export async function readTraces(paths: readonly string[], opts: TraceReadOptions): Promise<TracesRead> {
  const traces: RecordedTrace[] = [];
  const files: string[] = [];
  for (const p of paths) {
    const path = resolve(opts.cwd, p);
    const shown = relative(opts.cwd, path) || path;
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(path, TEXT_FILE_MAX_BYTES);
    } catch (err) {
      if (!(err instanceof FileReadError)) throw err;
      throw new UserError(err.problem === 'missing' ? 'no such file' : `it ${err.message}`, { file: shown });
    }
    refuseUtf16(bytes, shown);
    pushAll(traces, tracesFromLines(bytes.toString('utf8'), shown));
    files.push(shown);
  }
  return { traces, files, notes: [] };
}
