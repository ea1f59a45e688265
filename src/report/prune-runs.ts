import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Keeps the `keep` most recent run folders under `<outputDir>/runs/` (by modification time) and
 * removes the rest: each run streams its cases there, and without a bound CI caches and laptops
 * collect one folder per run forever. A folder that cannot be read or removed is left alone.
 */
export async function pruneRuns(runsDir: string, keep: number): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(runsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
  if (names.length <= keep) return [];
  const dated = await Promise.all(names.map(async (name) => ({ name, mtime: await stat(join(runsDir, name)).then((s) => s.mtimeMs, () => 0) })));
  // Newest first; run ids start with their start time, which breaks ties within a clock tick.
  dated.sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name));
  const removed = dated.slice(keep).map((d) => d.name);
  await Promise.all(removed.map((name) => rm(join(runsDir, name), { recursive: true, force: true }).catch(() => {})));
  return removed;
}
