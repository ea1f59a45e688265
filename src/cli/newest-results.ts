import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UserError } from '../core/errors.js';
import { RESULTS_FILE } from '../report/registry.js';

/** A results document on disk and when it was last written. */
export interface ResultsOnDisk {
  path: string;
  mtimeMs: number;
}

/**
 * The results documents a run left under `outputDir`, newest first: the run's own `results.json`
 * (the `json` reporter's default path) and the saved baselines (`baselines/<name>.json`). A file
 * written elsewhere with `--json <path>` is found only when given by path (`--from`).
 */
export async function resultsOnDisk(outputDir: string): Promise<ResultsOnDisk[]> {
  const baselines = await readdir(join(outputDir, 'baselines')).then(
    (names) => names.filter((n) => n.endsWith('.json')).map((n) => join(outputDir, 'baselines', n)),
    () => [] as string[],
  );
  const found = await Promise.all(
    [join(outputDir, RESULTS_FILE), ...baselines].map((path) =>
      stat(path).then(
        (s): ResultsOnDisk | undefined => (s.isFile() ? { path, mtimeMs: s.mtimeMs } : undefined),
        () => undefined,
      ),
    ),
  );
  // Newest first; equal times keep `results.json` (listed first) ahead of a baseline.
  return found.filter((f): f is ResultsOnDisk => f !== undefined).sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/**
 * The newest results document under `outputDir`, for a flag that reads "the last run" when given no
 * path. None is bad input (exit 2) naming the flag and where it looked.
 */
export async function newestResults(outputDir: string, cwd: string, flag: string): Promise<string> {
  const [newest] = await resultsOnDisk(outputDir);
  if (newest) return newest.path;
  const dir = relative(cwd, outputDir) || outputDir;
  throw new UserError(`no results to read: ${dir} holds no results.json and no saved baseline (run the suite once, or name a results file)`, { field: flag });
}
