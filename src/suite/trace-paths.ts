import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { UserError } from '../core/errors.js';

/** The files a folder argument stands for. */
export const TRACE_FILE_GLOB = '**/*.{json,jsonl,ndjson}';

/**
 * The files to read for the paths given, in order: a file as it is, a folder as its `*.json`,
 * `*.jsonl` and `*.ndjson` files at any depth, sorted. A path that is not there, and a folder
 * holding no such file, are bad input naming it. Each file once, where it first came.
 */
export async function traceFiles(paths: readonly string[], cwd: string): Promise<Array<{ path: string; shown: string }>> {
  const files: Array<{ path: string; shown: string }> = [];
  const seen = new Set<string>();
  const add = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    files.push({ path, shown: relative(cwd, path) || path });
  };
  for (const p of paths) {
    const path = resolve(cwd, p);
    const shown = relative(cwd, path) || path;
    const kind = await stat(path).then(
      (s) => (s.isDirectory() ? 'folder' : 'file'),
      () => 'missing',
    );
    if (kind === 'missing') throw new UserError('no such file or folder', { file: shown });
    if (kind === 'file') {
      add(path);
      continue;
    }
    const found = (await glob(TRACE_FILE_GLOB, { cwd: path, absolute: true, onlyFiles: true })).sort();
    if (found.length === 0) throw new UserError('holds no .json/.jsonl/.ndjson file: a folder of traces holds OTLP JSON exports, results files or JSONL trace lines', { file: shown });
    for (const f of found) add(f);
  }
  return files;
}
