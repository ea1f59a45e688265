import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';

/** A file `report --history` reads: named on the command line (bad input when it is not a results file) or found in a folder (then passed over with a warning). */
export interface HistoryFile {
  path: string;
  named: boolean;
}

/** The `*.json` files directly in `dir`, sorted by name; none when it is not a folder. */
async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(dir, e.name))
    .sort();
}

/**
 * The results files `agent-evals report --history <folder or files...>` reads. A file is read as given.
 * A folder yields the `*.json` files directly in it and in its `baselines/` folder: for an output
 * folder (`.agent-evals`), its `results.json` and the saved baselines. Its other folders are not
 * read: a run folder (`runs/<id>/`) holds the run's JSONL records and plan, not a results document.
 * A path given twice, or found twice, is read once. A path that does not exist is bad input (exit 2).
 */
export async function historyFiles(args: readonly string[], cwd: string, flag: string): Promise<HistoryFile[]> {
  const found = new Map<string, HistoryFile>();
  for (const arg of args) {
    const path = resolve(cwd, arg);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UserError('no such results file or folder', { file: relative(cwd, path) || path, field: flag });
    if (info.isDirectory()) {
      for (const file of [...(await jsonFiles(path)), ...(await jsonFiles(join(path, 'baselines')))]) if (!found.has(file)) found.set(file, { path: file, named: false });
    } else {
      found.set(path, { path, named: true });
    }
  }
  return [...found.values()];
}
