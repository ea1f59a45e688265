import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The results document a run folder keeps (`<outputDir>/runs/<id>/results.json`), written by the json reporter. */
export const RUN_FOLDER_RESULTS = 'results.json';

/** A run's folder: `<outputDir>/runs/<run id>/`. */
export const runFolder = (outputDir: string, runId: string): string => join(outputDir, 'runs', runId);

/** A run folder (`<outputDir>/runs/<id>/`) that holds the run's results document. */
export interface RunFolder {
  /** The run id: the folder's name. */
  id: string;
  /** The folder, absolute. */
  dir: string;
  /** Its results document (`results.json`), absolute. */
  results: string;
}

/** A folder name that is a run id: it starts with its run's start, `YYYYMMDD-HHMMSS-` (src/runner/loop/run-id.ts). */
const RUN_ID = /^(\d{8}-\d{6})-/;

/** Whether a folder under `runs/` is a run's (named by its run id): only those are listed or pruned. */
export const isRunId = (name: string): boolean => RUN_ID.test(name);

/** The names of the folders in `runsDir` (`<outputDir>/runs/`); none when it is missing or unreadable. */
export function folderNames(runsDir: string): Promise<string[]> {
  return readdir(runsDir, { withFileTypes: true }).then(
    (entries) => entries.filter((e) => e.isDirectory()).map((e) => e.name),
    () => [],
  );
}

/**
 * Oldest first: by the start time a run id begins with (to the second), then by `mtimeMs` (the folder's
 * or its results', when a run last wrote there), then by id. The id decides first, as a copied or
 * restored folder (a CI cache) gets new modification times; the time breaks ties within one second.
 */
export function oldestRunFirst(a: { id: string; mtimeMs: number }, b: { id: string; mtimeMs: number }): number {
  const start = (id: string) => RUN_ID.exec(id)?.[1] ?? id;
  const sa = start(a.id);
  const sb = start(b.id);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.mtimeMs - b.mtimeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The run folders under `<outputDir>/runs/` that hold a results document, oldest first (`oldestRunFirst`:
 * by the start time their run id begins with; runs started within the same second by when their
 * results were written). A folder without `results.json` (a run still going, killed, or with
 * `results: false`) is left out; no `runs/` folder is none. A folder not named by a run id (no run
 * makes one) is listed too, ordered by its whole name.
 */
export async function runFoldersWithResults(outputDir: string): Promise<RunFolder[]> {
  const runs = resolve(outputDir, 'runs');
  const names = await folderNames(runs);
  const found = await Promise.all(
    names.map(async (id) => {
      const dir = join(runs, id);
      const results = join(dir, RUN_FOLDER_RESULTS);
      const file = await stat(results).catch(() => undefined);
      return file?.isFile() ? { id, dir, results, mtimeMs: file.mtimeMs } : undefined;
    }),
  );
  return found
    .filter((f) => f !== undefined)
    .sort(oldestRunFirst)
    .map(({ id, dir, results }): RunFolder => ({ id, dir, results }));
}
