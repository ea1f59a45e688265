import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { folderNames, isRunId, oldestRunFirst } from './run-folders.js';

/**
 * Keeps the `keep` newest run folders under `<outputDir>/runs/` (the run just begun among them) and
 * removes the rest: each run keeps its cases, plan and results there, and without a bound CI caches
 * and laptops collect one folder per run forever. Every run folder counts, finished or not (a killed
 * run's folder is what `--resume` reads); newest by the start in its run id (`oldestRunFirst`), not by
 * modification time alone, which a restored CI cache resets. A folder not named by a run id is not a
 * run's: neither counted nor removed. One that cannot be read or removed is left alone.
 */
export async function pruneRuns(runsDir: string, keep: number): Promise<string[]> {
  const names = (await folderNames(runsDir)).filter(isRunId);
  if (names.length <= keep) return [];
  const dated = await Promise.all(
    names.map(async (id) => ({
      id,
      mtimeMs: await stat(join(runsDir, id)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    })),
  );
  dated.sort(oldestRunFirst);
  const removed = dated.slice(0, dated.length - keep).map((d) => d.id);
  await Promise.all(removed.map((name) => rm(join(runsDir, name), { recursive: true, force: true }).catch(() => {})));
  return removed;
}
