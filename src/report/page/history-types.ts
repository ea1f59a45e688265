// The history page's data block (`#history`), as src/report/history-data.ts writes it. The page may
// import nothing outside src/report/page/, so this is its own copy of those types.

export type Verdict = 'passed' | 'failed' | 'scored' | 'skipped';

export interface HistoryRun {
  file: string;
  id: string;
  startedAt: string;
  gitSha: string | null;
  passRate: number | null;
  passed: number;
  trials: number;
  score: number;
  costUsd: number | null;
  cases: { total: number; passed: number; failed: number; scored: number; skipped: number };
}

/** Verdict, pass rate (null: no trial ran), mean score, cost (null: unknown). */
export type CasePoint = [Verdict, number | null, number, number | null];

export interface HistoryCase {
  key: string;
  flips: number;
  range: number;
  points: (CasePoint | null)[];
}

export interface HistoryData {
  runs: HistoryRun[];
  cases: HistoryCase[];
  changed: number;
  skipped: string[];
}
