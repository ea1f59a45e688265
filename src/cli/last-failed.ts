import { relative, resolve } from 'node:path';
import { z } from 'zod';
import { caseKey } from '../core/matrix.js';
import { CaseResultSchema, SCHEMA_VERSION } from '../core/results-schema.js';
import { newestResults } from './newest-results.js';
import { loadConfigFromFlags, planCases, type PlannedRun, type SelectionFlags } from './prepare.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { readResultsFile } from '../suite/results-file.js';

/** `run --last-failed [--from <results.json>]`. */
export interface LastFailedFlags {
  lastFailed?: boolean;
  from?: string;
}

/** What `--last-failed` reads of a results document: each case's identity, verdict and flakiness. */
const FailedReadSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  cases: z.array(CaseResultSchema.pick({ suite: true, id: true, matrix: true, verdict: true, flaky: true })),
});

/** The cases `--last-failed` picks, by key, and the results file they come from (as shown). */
export interface LastFailed {
  keys: ReadonlySet<string>;
  file: string;
}

/**
 * The keys of the cases that failed, ended `scored` or were flaky in the newest results under
 * `outputDir` (or `--from`); undefined without `--last-failed`. The run selects these among its
 * planned cases, after its own --filter and tags (an intersection).
 */
export async function lastFailed(flags: LastFailedFlags, outputDir: string, cwd: string): Promise<LastFailed | undefined> {
  if (!flags.lastFailed) return undefined;
  const path = flags.from !== undefined ? resolve(cwd, flags.from) : await newestResults(outputDir, cwd, '--last-failed');
  const results = await readResultsFile(path, cwd, flags.from !== undefined ? '--from' : '--last-failed', FailedReadSchema);
  const keys = new Set(results.cases.filter((c) => c.verdict === 'failed' || c.verdict === 'scored' || c.flaky).map(caseKey));
  return { keys, file: relative(cwd, path) || path };
}

/** The line `--last-failed` prints when it has nothing to run (it then exits 0). */
export function nothingFailedLine(picked: LastFailed): string {
  return picked.keys.size === 0
    ? `--last-failed: nothing failed in ${picked.file}: no case to run`
    : `--last-failed: none of the ${picked.keys.size} case${picked.keys.size === 1 ? '' : 's'} that failed in ${picked.file} is in this run's selection: no case to run`;
}

/**
 * `prepareCases` with `--last-failed`: the config, then the failed cases of the last results among
 * the selection. `picked` is set with the flag; the cases are then empty when none is left to run.
 */
export async function preparePicked(paths: string[], flags: SelectionFlags & LastFailedFlags, cwd: string): Promise<{ config: ResolvedConfig; picked?: LastFailed } & PlannedRun> {
  const config = await loadConfigFromFlags(flags, cwd);
  const picked = await lastFailed(flags, config.outputDir, cwd);
  if (!picked) return { config, ...(await planCases(config, paths, flags, cwd)) };
  // Nothing failed: nothing to plan (no eval file needs to load).
  if (picked.keys.size === 0) return { config, picked, cases: [], total: 0, partial: ['--last-failed'] };
  return { config, picked, ...(await planCases(config, paths, { ...flags, onlyKeys: picked.keys }, cwd)) };
}
