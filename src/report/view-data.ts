/**
 * The run list's data (`agent-evals view`): one record per run folder that holds a results document,
 * newest first. The list page's script (page/view-main.ts) reads these types too, as types only.
 */

/** One run as the list shows it. */
export interface ViewRun {
  /** The run folder's name (`runs/<id>/`): the address of its report. */
  id: string;
  startedAt: string;
  /** The start as people read it (`2026-12-03 15:40:12 UTC`). */
  started: string;
  gitSha: string | null;
  /** Passed of the trials that ran to a verdict; null when none did. */
  passRate: number | null;
  passed: number;
  trials: number;
  /** Target plus judge, dollars (a watch re-run: what its re-run cases spent); null when a price is unknown. */
  costUsd: number | null;
  /** The exit code the results give (see `exitCodeOf` in src/cli/view-runs.ts). */
  exitCode: number;
  /** What kind of run when not a plain one (`shard 1/2`, `last failed`, `watch: 2 cases re-run`; src/report/run-label.ts). */
  kind: string | null;
  /** The flags that chose part of the plan (`--filter …`, `--tag …`); empty when none did. */
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
