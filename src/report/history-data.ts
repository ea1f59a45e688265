import type { CaseVerdict } from '../core/results-schema.js';

/**
 * The history page's data (`agent-evals report --history`): one record per results file read, and per
 * case one point per run. Built from digests, never from whole documents: a reader keeps only these
 * few numbers of each file (src/cli/history-read.ts), so hundreds of runs fit in little memory and
 * make a small page. The page's script (page/) reads these types too, as types only.
 */

/** One run as the history shows it. */
export interface HistoryRun {
  /** The results file it was read from, relative to the working directory. */
  file: string;
  id: string;
  startedAt: string;
  gitSha: string | null;
  /** Its start (date and time, UTC) and commit when known, as the charts and tables name it (`2026-12-03 15:40:12 UTC · 1a2b3c4`). */
  label: string;
  /** What kind of run when not a plain one (`watch: 1 case re-run`, `last failed`, `shard 1/2`); null for a plain run. */
  kind: string | null;
  /** A scored batch of recorded traces (`agent-evals score`): listed, but no point of the runs' trend (it is no run of the agent). */
  scored: boolean;
  /** Passed of the trials that ran to a verdict; null when none did. */
  passRate: number | null;
  passed: number;
  trials: number;
  /** Mean trial score. */
  score: number;
  /** Target plus judge, dollars; null when a price is unknown. A watch re-run's: its re-run cases'. */
  costUsd: number | null;
  cases: { total: number; passed: number; failed: number; scored: number; skipped: number };
}

/** One case in one run, as a tuple to keep a page of hundreds of runs small: verdict, pass rate (null: no trial ran), mean score, cost (null: unknown). */
export type CasePoint = [verdict: CaseVerdict, rate: number | null, score: number, costUsd: number | null];

/** What a reader keeps of one results file. */
export interface RunDigest {
  run: HistoryRun;
  /** Each case by its key (`suite/id [target=…]`). */
  cases: Map<string, CasePoint>;
}

/** One case over the runs. */
export interface HistoryCase {
  key: string;
  /** Runs in which its verdict differs from its previous run's (runs without the case are passed over). */
  flips: number;
  /** Highest minus lowest pass rate over the runs that ran it (0 when fewer than two did). */
  range: number;
  /** One per run, in the runs' order; null where the run did not hold the case. */
  points: (CasePoint | null)[];
}

/** The page's data block. */
export interface HistoryData {
  /** Oldest first, by `run.startedAt`. */
  runs: HistoryRun[];
  /** Most changed first: most verdict flips, then widest pass-rate range, then by key. */
  cases: HistoryCase[];
  /** How many of the first `cases` changed at all (a flip or a range above 0), at most CHANGED_MOST. */
  changed: number;
  /** Files passed over, each with why (`notes.json: not a results file: …`). */
  skipped: string[];
}

/** The "changed most" table lists at most this many cases. */
export const CHANGED_MOST = 20;

/** Numbers rounded to 4 decimals: a page of many runs carries no float noise. */
const round = (n: number): number => Math.round(n * 1e4) / 1e4;
const roundOrNull = (n: number | null): number | null => (n === null ? null : round(n));
/** Dollars to a millionth: a case's cost is often a fraction of a cent. */
const dollars = (n: number | null): number | null => (n === null ? null : Math.round(n * 1e6) / 1e6);

/** `startedAt` as a time; an unparsable one sorts by its text after the parsable ones. */
function startedTime(run: HistoryRun): number {
  const t = Date.parse(run.startedAt);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** Orders runs by start (then file), lines each case up over them, and ranks the cases that changed most. */
export function buildHistory(digests: readonly RunDigest[], skipped: readonly string[] = []): HistoryData {
  const ordered = [...digests].sort((a, b) => startedTime(a.run) - startedTime(b.run) || a.run.startedAt.localeCompare(b.run.startedAt) || a.run.file.localeCompare(b.run.file));
  const keys = new Set<string>();
  for (const d of ordered) for (const key of d.cases.keys()) keys.add(key);
  const cases: HistoryCase[] = [];
  for (const key of keys) {
    const points = ordered.map((d) => {
      const p = d.cases.get(key);
      return p ? ([p[0], roundOrNull(p[1]), round(p[2]), dollars(p[3])] as CasePoint) : null;
    });
    cases.push({ key, ...change(points), points });
  }
  cases.sort((a, b) => b.flips - a.flips || b.range - a.range || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let changed = 0;
  while (changed < Math.min(CHANGED_MOST, cases.length) && (cases[changed]!.flips > 0 || cases[changed]!.range > 0)) changed++;
  const runs = ordered.map((d) => ({ ...d.run, passRate: roundOrNull(d.run.passRate), score: round(d.run.score), costUsd: dollars(d.run.costUsd) }));
  return { runs, cases, changed, skipped: [...skipped] };
}

/** How much one case moved: verdict flips between the runs that held it, and its pass rate's range. */
export function change(points: readonly (CasePoint | null)[]): { flips: number; range: number } {
  let flips = 0;
  let last: CaseVerdict | undefined;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    if (!p) continue;
    if (last !== undefined && p[0] !== last) flips++;
    last = p[0];
    if (p[1] !== null) {
      low = Math.min(low, p[1]);
      high = Math.max(high, p[1]);
    }
  }
  return { flips, range: high > low ? round(high - low) : 0 };
}
