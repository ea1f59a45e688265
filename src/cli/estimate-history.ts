import { relative, resolve } from 'node:path';
import type { CaseResult, Results } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { UserError } from '../core/errors.js';
import { runFoldersWithResults } from '../report/run-folders.js';
import { loadRecorded } from './baseline-file.js';
import { resultsOnDisk } from './newest-results.js';

/** A recorded run that planned cases are priced from. */
export interface PricedFrom {
  /** Its results document, absolute. */
  path: string;
  runId: string;
  startedAt: string;
  gitSha: string | null;
  /** How many planned cases are priced from it. */
  cases: number;
}

/** What a cost estimate prices the plan from: a recorded result per planned case it found, and the runs they came from, newest first. */
export interface History {
  cases: CaseResult[];
  runs: PricedFrom[];
}

/** A recorded result the estimate can price: at least one trial that ran to its end. */
const measured = (c: CaseResult) => c.trials.some((t) => !t.interrupted);

/**
 * The recording a cost estimate reads. `--from <results.json>` when given (`--from` is the results file
 * that the flags reading the last run use, `--estimate` and `--last-failed` alike): that file alone; one
 * that cannot be read or holds none of the planned cases is bad input (exit 2). Else the newest
 * recorded result of each planned case across the runs kept under `outputDir` (`newestResultPerCase`),
 * so a partial run (`--filter`, `--last-failed`, a watch re-run) prices its own cases and the older runs
 * price the rest. Undefined when no recording holds any planned case.
 */
export async function estimateHistory(planKeys: readonly string[], outputDir: string, cwd: string, from: string | undefined): Promise<History | undefined> {
  const keys = new Set(planKeys);
  if (from === undefined) return newestResultPerCase(keys, outputDir, cwd);
  const path = resolve(cwd, from);
  const results = await loadRecorded(path, cwd, '--from', from);
  const held = results.cases.filter((c) => keys.has(caseKey(c)));
  // A stranger's file (another suite's) would price nothing and say so only case by case.
  if (held.length === 0) throw new UserError(`holds none of the ${planKeys.length} planned cases (is it from another suite or project?)`, { file: relative(cwd, path) || path, field: '--from' });
  return { cases: results.cases, runs: [pricedFrom(path, results, held.length)] };
}

const pricedFrom = (path: string, r: Results, cases: number): PricedFrom => ({ path, runId: r.run.id, startedAt: r.run.startedAt, gitSha: r.run.gitSha, cases });

/**
 * The results documents under `outputDir`, newest first: the run folders' `results.json` by the start in
 * their run ids (`runFoldersWithResults`, newest first: a restored CI cache's new file times do not
 * reorder them), then `results.json` and the saved baselines, newest written first. Those are the
 * newest run again, or runs whose folders are gone (pruned, `keepRuns: 0`, written before run folders
 * kept results), so they come after the folders.
 */
async function recordings(outputDir: string): Promise<string[]> {
  const folders = (await runFoldersWithResults(outputDir)).map((f) => f.results).reverse();
  return [...folders, ...(await resultsOnDisk(outputDir)).map((f) => f.path)];
}

/**
 * The newest recorded result of each planned case under `outputDir`, read newest first until every
 * planned case has one: a run is read once however many files hold it (its folder's copy,
 * `results.json`, a baseline it saved); a case none of whose trials ran to its end is priced from an
 * older run. A watch re-run's document holds the cases it did not re-run as carried from earlier
 * runs: those count only when no other run kept one (its older runs pruned). A file that cannot be
 * read (stale, foreign) is passed over.
 */
async function newestResultPerCase(keys: ReadonlySet<string>, outputDir: string, cwd: string): Promise<History | undefined> {
  const picked = new Map<string, { result: CaseResult; run: number }>();
  const carried = new Map<string, { result: CaseResult; run: number }>();
  const runs: PricedFrom[] = [];
  const seen = new Set<string>();
  for (const path of await recordings(outputDir)) {
    if (picked.size === keys.size) break;
    let results: Results;
    try {
      results = await loadRecorded(path, cwd, '--from', path);
    } catch (err) {
      if (err instanceof UserError) continue; // a stale or foreign file: the next newest may do
      throw err;
    }
    if (seen.has(results.run.id)) continue;
    seen.add(results.run.id);
    const rerun = results.run.watch ? new Set(results.run.watch.rerun) : undefined;
    const run = runs.push(pricedFrom(path, results, 0)) - 1;
    for (const result of results.cases) {
      const key = caseKey(result);
      if (!keys.has(key) || picked.has(key) || !measured(result)) continue;
      if (rerun && !rerun.has(key)) {
        if (!carried.has(key)) carried.set(key, { result, run });
      } else picked.set(key, { result, run });
    }
  }
  for (const [key, c] of carried) if (!picked.has(key)) picked.set(key, c);
  if (picked.size === 0) return undefined;
  for (const { run } of picked.values()) runs[run]!.cases++;
  return { cases: [...picked.values()].map((c) => c.result), runs: runs.filter((r) => r.cases > 0) };
}
