import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RUN_FOLDER_RESULTS } from './json.js';

/** A run folder (`<outputDir>/runs/<id>/`) that holds the run's results document. */
export interface RunFolder {
  /** The run id: the folder's name. */
  id: string;
  /** The folder, absolute. */
  dir: string;
  /** Its results document (`results.json`), absolute. */
  results: string;
}

/**
 * The run folders under `<outputDir>/runs/` that hold a results document, oldest first by run id: an id
 * starts with its run's start time (`20261203-154335-…`, to the second), so the names sort as the runs
 * began; two runs started in the same second keep their ids' order. A folder without `results.json` (a
 * run still going, killed, or written with `results: false`) is left out; no `runs/` folder is none.
 */
export async function runFoldersWithResults(outputDir: string): Promise<RunFolder[]> {
  const runs = resolve(outputDir, 'runs');
  const names = await readdir(runs, { withFileTypes: true }).then(
    (entries) => entries.filter((e) => e.isDirectory()).map((e) => e.name),
    () => [] as string[],
  );
  const found = await Promise.all(
    names.map(async (id): Promise<RunFolder | undefined> => {
      const dir = join(runs, id);
      const results = join(dir, RUN_FOLDER_RESULTS);
      const file = await stat(results).catch(() => undefined);
      return file?.isFile() ? { id, dir, results } : undefined;
    }),
  );
  return found.filter((f) => f !== undefined).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
