/**
 * The run list's data (`agent-evals view`): one record per run folder that holds a results document,
 * newest first. The list page's script (src/report/page/view-main.ts) reads these types too, as types only.
 */

/** One run as the list shows it. */
export interface ViewRun {
  /** The run folder's name (`runs/<id>/`): the address of its report. */
  id: string;
  startedAt: string;
  gitSha: string | null;
  /** Passed of the trials that ran to a verdict; null when none did. */
  passRate: number | null;
  passed: number;
  trials: number;
  /** Target plus judge, dollars; null when a price is unknown. */
  costUsd: number | null;
  /** The exit code the results give (see `exitCodeOf` in src/cli/view-runs.ts). */
  exitCode: number;
  /** The flags that chose part of the plan (`--filter …`, `--shard 1/2`, `--last-failed`, …); empty for the whole plan. */
  selection: string;
  /** The trace policy the results were written under; the viewer shows the raw trials of a `safe` run. */
  trace: string | null;
  cases: { total: number; passed: number; failed: number; scored: number; skipped: number };
}

/** The run list page's data block. */
export interface ViewListData {
  /** The folder served, as given. */
  dir: string;
  /** Newest first. */
  runs: ViewRun[];
  /** Run folders passed over, each with why. */
  skipped: string[];
}
