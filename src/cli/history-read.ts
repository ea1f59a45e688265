import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { caseKey } from '../core/matrix.js';
import { CaseResultSchema, ResultsSchema, type Summary } from '../core/results-schema.js';
import type { CasePoint, RunDigest } from '../report/history-data.js';
import { runKind, runLabel } from '../report/run-label.js';
import type { HistoryFile } from './history-files.js';
import { parseResults, readResultsJson } from '../suite/results-file.js';

/**
 * What the history reads of a results file: ResultsSchema itself, with each case cut down to what the
 * page shows (key, verdict, pass rate, score, usage). Every field kept is checked as the full schema
 * checks it; a case's trials, assertions and replies (almost all of a file) are neither validated nor
 * kept: zod leaves out the keys an object schema does not name.
 */
export const HistoryResultsSchema = ResultsSchema.pick({ schemaVersion: true, tool: true, run: true, summary: true }).extend({
  cases: z.array(CaseResultSchema.pick({ suite: true, id: true, matrix: true, verdict: true, passed: true, planned: true, notRun: true, passRate: true, score: true, usage: true })),
});
export type HistoryResults = z.infer<typeof HistoryResultsSchema>;

/** Files read at once: a bound on memory (each file's text and parse are held only while it is read). */
export const HISTORY_CONCURRENCY = 8;
/** And at most this many bytes of them at once (a file larger than this is read alone): a few large results files must not be held together. */
export const HISTORY_BYTES = 64 * 1024 * 1024;

/** A budget of bytes in flight: `take` waits until the bytes fit beside those held (or none are held). */
function byteBudget(limit: number): { take(bytes: number): Promise<void>; give(bytes: number): void } {
  let held = 0;
  let waiting: (() => void)[] = [];
  return {
    async take(bytes) {
      while (held > 0 && held + bytes > limit) await new Promise<void>((resolve) => waiting.push(resolve));
      held += bytes;
    },
    give(bytes) {
      held -= bytes;
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
    },
  };
}

const cost = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** A run's pass rate: the summary's, or (under 2 trials, where the summary gives none) passes over trials that ran to a verdict. */
function runPassRate(s: Summary): { rate: number | null; passed: number; trials: number } {
  if (s.passRate) return { rate: s.passRate.rate, passed: s.passRate.passed, trials: s.passRate.trials };
  const trials = s.trials.run - (s.trials.interrupted ?? 0);
  return { rate: trials > 0 ? s.trials.passed / trials : null, passed: s.trials.passed, trials };
}

/**
 * The few numbers of one results document the history page shows. A `run --watch` re-run's document
 * holds the whole suite, the cases it did not re-run carried from earlier runs: those are points of the
 * runs that ran them, not of this one, and its cost is what its re-run cases spent. Its pass rate and
 * case counts stay the whole suite's, as the watch reported them.
 */
export function digestResults(r: HistoryResults, file: string): RunDigest {
  const rate = runPassRate(r.summary);
  const rerun = r.run.watch ? new Set(r.run.watch.rerun) : undefined;
  const cases = new Map<string, CasePoint>();
  let rerunCost: number | null = 0;
  for (const c of r.cases) {
    const key = caseKey(c);
    if (rerun && !rerun.has(key)) continue;
    const ran = c.planned - c.notRun;
    const caseRate = c.passRate ? c.passRate.rate : ran > 0 ? Math.min(1, c.passed / ran) : null;
    const caseCost = cost(c.usage.target.costUsd, c.usage.judge.costUsd);
    rerunCost = cost(rerunCost, caseCost);
    cases.set(key, [c.verdict, caseRate, c.score.mean, caseCost]);
  }
  const { total, passed, failed, scored, skipped } = r.summary.cases;
  return {
    run: {
      file,
      id: r.run.id,
      startedAt: r.run.startedAt,
      gitSha: r.run.gitSha,
      label: runLabel(r.run),
      kind: runKind(r.run),
      scored: r.run.scoredFrom !== undefined,
      passRate: rate.rate,
      passed: rate.passed,
      trials: rate.trials,
      score: r.summary.score.mean,
      costUsd: rerun ? rerunCost : r.summary.usage.total.costUsd,
      cases: { total, passed, failed, scored, skipped },
    },
    cases,
  };
}

/** The history orders and labels runs by their start: a file whose start is no date is not a run it can place. */
function datedResults(r: HistoryResults, file: string): HistoryResults {
  if (Number.isNaN(Date.parse(r.run.startedAt)))
    throw new UserError('run.startedAt is not a date (a results file records an ISO 8601 time, such as 2026-01-31T09:30:00.000Z)', { file, field: 'run.startedAt' });
  return r;
}

/** The runs read, and the folder files passed over (each `file: why`). */
export interface HistoryRead {
  digests: RunDigest[];
  skipped: string[];
}

/**
 * Reads the history's results files, HISTORY_CONCURRENCY (and at most HISTORY_BYTES) at a time,
 * keeping only each one's digest.
 * A named file that is not a results file is bad input (exit 2, naming it); one found in a folder is
 * passed over and listed in `skipped`. A run found twice (a baseline saved by the run that also wrote
 * `results.json`: same id and start) is kept once, from the file met first.
 */
export async function readHistory(files: readonly HistoryFile[], cwd: string, flag: string): Promise<HistoryRead> {
  const digests = new Array<RunDigest | undefined>(files.length);
  const skippedAt = new Array<string | undefined>(files.length);
  const budget = byteBudget(HISTORY_BYTES);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const { path, named } = files[i]!;
      const file = relative(cwd, path) || path;
      // A folder's file is named by its path alone in the warning; a named one by its path and the argument.
      const field = named ? flag : '';
      // A file that cannot be stat'ed counts as empty here: reading it names the fault.
      const bytes = await stat(path).then(
        (s) => s.size,
        () => 0,
      );
      await budget.take(bytes);
      try {
        digests[i] = digestResults(datedResults(parseResults(await readResultsJson(path, file, field), file, field, HistoryResultsSchema), file), file);
      } catch (err) {
        if (named || !(err instanceof UserError)) throw err;
        skippedAt[i] = err.message;
      } finally {
        budget.give(bytes);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HISTORY_CONCURRENCY, files.length) }, worker));
  const seen = new Set<string>();
  const kept: RunDigest[] = [];
  for (const d of digests) {
    if (!d) continue;
    const run = `${d.run.id}\n${d.run.startedAt}`;
    if (seen.has(run)) continue;
    seen.add(run);
    kept.push(d);
  }
  return { digests: kept, skipped: skippedAt.filter((s): s is string => s !== undefined) };
}
