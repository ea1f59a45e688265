import { relative } from 'node:path';
import { UserError } from '../core/errors.js';
import type { Results } from '../core/results-schema.js';
import type { RunFolder } from '../report/run-folders.js';
import { runStartText } from '../report/run-label.js';
import type { ViewRun } from '../report/view-data.js';
import { exitCodeFor } from '../runner/loop/exit-code.js';
import { digestResults, HistoryResultsSchema } from './history-read.js';
import { parseResults, readResultsJson } from '../suite/results-file.js';

/**
 * The exit code a run's results give, decided as the run decided it (src/runner/loop/exit-code.ts): 130
 * interrupted; 1 a failed case or a failed run gate (the summary's failures hold the gates, a failed
 * comparison and a budget stop); 1 for a `scored` case only under `--strict`, which the results keep
 * for a shard and in the command line only (a config's `strict: true` is not recorded). A run whose
 * output could not be written ended 2, which its results cannot say.
 */
export function exitCodeOf(r: Pick<Results, 'run' | 'summary'>): number {
  return exitCodeFor(r.summary, { strict: r.run.shard?.exit.strict ?? strictFlag(r.run.argv), interrupted: r.run.interrupted });
}

/** `--strict` or `--no-strict` on the command line, the last one given; false when neither. */
function strictFlag(argv: readonly string[]): boolean {
  const last = argv.findLast((a) => a === '--strict' || a === '--no-strict');
  return last === '--strict';
}

/**
 * Flags that choose part of the plan, each taking a value. A shard, `--last-failed` and a watch
 * re-run are the run's kind (`runKind`), read from the results rather than the command line.
 */
const SELECTING = new Set(['-f', '--filter', '-t', '--tag', '--exclude-tag', '--limit', '--sample', '--seed', '--target', '--matrix']);

/**
 * The flags of a run's command line that chose part of its plan (`--filter shop/* --tag smoke`), in
 * the order given. Eval files named on the command line are not told apart from other words and are
 * not shown. Empty: nothing chosen by flag.
 */
export function selectionOf(argv: readonly string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name] = arg.split('=', 1) as [string];
    if (SELECTING.has(name) && name !== arg) kept.push(arg);
    else if (SELECTING.has(arg) && i + 1 < argv.length) kept.push(arg, argv[++i]!);
  }
  return kept.join(' ');
}

/**
 * The run list of `agent-evals view`, newest first: one entry per run folder with a results document.
 * A folder whose results cannot be read is passed over and named in `skipped`, never an error: the
 * list stays up while a run writes.
 */
export async function viewRuns(folders: readonly RunFolder[], cwd: string): Promise<{ runs: ViewRun[]; skipped: string[] }> {
  const runs: ViewRun[] = [];
  const skipped: string[] = [];
  for (const folder of folders) {
    const file = relative(cwd, folder.results) || folder.results;
    try {
      const r = parseResults(await readResultsJson(folder.results, file, ''), file, '', HistoryResultsSchema);
      const d = digestResults(r, file).run;
      runs.push({
        id: folder.id,
        startedAt: d.startedAt,
        started: runStartText(d.startedAt),
        gitSha: d.gitSha,
        passRate: d.passRate,
        passed: d.passed,
        trials: d.trials,
        costUsd: d.costUsd,
        cases: d.cases,
        exitCode: exitCodeOf(r),
        kind: d.kind,
        selection: selectionOf(r.run.argv),
        trace: r.run.trace ?? null,
      });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      skipped.push(err.message);
    }
  }
  // Newest first by start time: run ids order by the second a run began, in random order within one.
  runs.sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { runs, skipped };
}
