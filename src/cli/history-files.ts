import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { runFoldersWithResults } from '../report/run-folders.js';

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
 * A folder yields, for an output folder (`.agent-evals`), each run folder's results document
 * (`runs/<id>/results.json`, oldest first: every run kept, not only the newest), then the `*.json`
 * files directly in it (`results.json`, the newest run again) and in its `baselines/` folder. Run
 * folders come first, so a run found twice (its folder's copy, `results.json`, a baseline it saved) is
 * shown from its folder: `readHistory` keeps a run once, from the file met first. A path given twice,
 * or found twice, is read once. A path that does not exist is bad input (exit 2).
 */
export async function historyFiles(args: readonly string[], cwd: string, flag: string): Promise<HistoryFile[]> {
  const found = new Map<string, HistoryFile>();
  for (const arg of args) {
    const path = resolve(cwd, arg);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UserError('no such results file or folder', { file: relative(cwd, path) || path, field: flag });
    if (info.isDirectory()) {
      const kept = (await runFoldersWithResults(path)).map((f) => f.results);
      for (const file of [...kept, ...(await jsonFiles(path)), ...(await jsonFiles(join(path, 'baselines')))]) if (!found.has(file)) found.set(file, { path: file, named: false });
    } else {
      found.set(path, { path, named: true });
    }
  }
  return [...found.values()];
}
