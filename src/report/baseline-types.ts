/**
 * The baseline's side of a compared run's moved cases, as baseline-view.ts reads it and the report
 * page's script (page/) shows it. Types only, free of Node's: the page imports them (as
 * types) and its tsconfig checks what they reach. The trial type is the reader's: the server's
 * TrialResult, the page's view of a trial (whose long texts the writer may have cut).
 */

/** One moved case as the baseline ran it: its first trials (the writer's pick) and how many it ran. */
export interface BaselineCaseView<Trial> {
  key: string;
  /** Trials the baseline ran of the case (only BASELINE_TRIALS are kept). */
  trialsRun: number;
  trials: Trial[];
}

export interface BaselineView<Trial> {
  /** The baseline as the comparison names it. */
  file: string;
  run?: { id: string; startedAt: string; gitSha: string | null };
  cases: BaselineCaseView<Trial>[];
  /** Moved cases past BASELINE_CASES. */
  omitted?: number;
  /** Why the baseline's side is not shown (the file is gone, holds another run, ...), in words. */
  missing?: string;
}
