import { relative, resolve } from 'node:path';
import type { Results } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { UserError } from '../core/errors.js';
import { loadRecorded } from './baseline-file.js';
import { resultsOnDisk } from './newest-results.js';

/** A recorded run an estimate reads, and where it was found. */
export interface History {
  path: string;
  results: Results;
}

/**
 * The recording a cost estimate reads: `--from <results.json>` when given (`--from` is the results
 * file that the flags reading the last run use, `--estimate` and `--last-failed` alike), else the
 * newest results document under `outputDir` (results.json or a saved baseline) that holds any of
 * the planned cases. A `--from` that cannot be read or holds none of them is bad input (exit 2); one
 * found on its own that cannot be read is passed over. Undefined when no recording holds any planned case.
 */
export async function estimateHistory(planKeys: readonly string[], outputDir: string, cwd: string, from: string | undefined): Promise<History | undefined> {
  const keys = new Set(planKeys);
  const holdsPlan = (r: Results) => r.cases.some((c) => keys.has(caseKey(c)));
  if (from !== undefined) {
    const path = resolve(cwd, from);
    const results = await loadRecorded(path, cwd, '--from');
    // A stranger's file (another suite's) would price nothing and say so only case by case.
    if (!holdsPlan(results)) throw new UserError(`holds none of the ${planKeys.length} planned cases (is it from another suite or project?)`, { file: relative(cwd, path) || path, field: '--from' });
    return { path, results };
  }
  for (const { path } of await resultsOnDisk(outputDir)) {
    let results: Results;
    try {
      results = await loadRecorded(path, cwd, '--from');
    } catch (err) {
      if (err instanceof UserError) continue; // a stale or foreign file: the next newest may do
      throw err;
    }
    if (holdsPlan(results)) return { path, results };
  }
  return undefined;
}
