import type { MatrixColumn, MatrixRow, MatrixTable } from '../core/results-schema.js';
import { MIN_TRIALS_FOR_INTERVAL, wilsonInterval } from './wilson.js';
import { largest, smallest } from '../core/extremes.js';

/** One matrix value's totals over a suite's cases, as the runner gathers them. */
export interface VariantTotals {
  value: string;
  cases: number;
  casesPassed: number;
  /** Trials that ran to a verdict (interrupted ones left out), and those that passed. */
  trialsRun: number;
  trialsPassed: number;
  scoreSum: number;
  /** null: some price was unknown. */
  targetCostUsd: number | null;
  judgeCostUsd: number | null;
  durationsMs: number[];
}

/** Nearest-rank 95th percentile: the smallest value with at least 95% of the values at or below it. */
export function p95(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('p95 of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1]!;
}

/**
 * Higher is better for results, lower for cost and latency. `n` is what a column compares over:
 * cases for cases passed, the trials that ran for every other column (costs are totals over them).
 */
const COLUMNS: Array<{
  column: MatrixColumn;
  higher: boolean;
  of: (r: MatrixRow) => number | null;
  n: (r: MatrixRow) => number;
  /** Values this close to the top tie with it (default: only the top itself). */
  near?: (value: number, top: number) => boolean;
}> = [
  { column: 'casesPassed', higher: true, of: (r) => r.casesPassed, n: (r) => r.cases },
  { column: 'passRate', higher: true, of: (r) => r.passRate.rate, n: trialsOf },
  { column: 'score', higher: true, of: (r) => r.score, n: trialsOf },
  { column: 'targetCost', higher: false, of: (r) => r.targetCostUsd, n: trialsOf },
  { column: 'judgeCost', higher: false, of: (r) => r.judgeCostUsd, n: trialsOf },
  { column: 'latencyMean', higher: false, of: (r) => r.latencyMs?.mean ?? null, n: trialsOf, near: latencyNear },
  { column: 'latencyP95', higher: false, of: (r) => r.latencyMs?.p95 ?? null, n: trialsOf, near: latencyNear },
];

/** A latency lead smaller than this share of the leader's, or than the table's 1 ms resolution, is the clock's noise, not a winner. */
export const LATENCY_MARGIN = 0.1;

function latencyNear(value: number, top: number): boolean {
  return Math.round(value) === Math.round(top) || value <= top * (1 + LATENCY_MARGIN);
}

function trialsOf(r: MatrixRow): number {
  return r.passRate.trials;
}

/**
 * The comparison table of one suite's matrix values. A column's best is the one value strictly ahead
 * of every other, compared on equal N: a tie marks none; a column with an unknown figure marks none,
 * since it cannot be ranked; a column whose values ran unequal trial (or case) counts marks none, and
 * a note says so, since more trials of a case are not the same question. Pass rate marks a best only
 * when the leader is clearly ahead: every value has an interval and the leader's overlaps no other's
 * (else the note says there is no clear winner); latency only when the leader is faster than every other
 * by more than LATENCY_MARGIN and by more than the 1 ms the table shows.
 */
export function matrixTable(suite: string, dimension: string, totals: readonly VariantTotals[]): MatrixTable {
  const rows: MatrixRow[] = totals.map((t) => ({
    value: t.value,
    cases: t.cases,
    casesPassed: t.casesPassed,
    passRate: { passed: t.trialsPassed, trials: t.trialsRun, rate: t.trialsRun ? t.trialsPassed / t.trialsRun : null },
    ...(t.trialsRun >= MIN_TRIALS_FOR_INTERVAL ? { interval: wilsonInterval(t.trialsPassed, t.trialsRun) } : {}),
    score: t.trialsRun ? t.scoreSum / t.trialsRun : null,
    targetCostUsd: t.targetCostUsd,
    judgeCostUsd: t.judgeCostUsd,
    latencyMs: t.durationsMs.length ? { mean: t.durationsMs.reduce((s, d) => s + d, 0) / t.durationsMs.length, p95: p95(t.durationsMs) } : null,
    best: [],
  }));
  if (rows.length < 2) return { suite, dimension, rows, notes: [] };
  const overlap = overlapNote(rows);
  const unclearPassRate = overlap.length > 0 || rows.some((r) => !r.interval);
  for (const { column, higher, of, n, near = (v: number, t: number) => v === t } of COLUMNS) {
    if (!equal(rows.map(n))) continue;
    if (column === 'passRate' && unclearPassRate) continue;
    const values = rows.map(of);
    if (values.some((v) => v === null)) continue;
    const nums = values as number[];
    const top = higher ? largest(nums) : smallest(nums);
    const leaders = rows.filter((_, i) => near(nums[i]!, top));
    if (leaders.length === 1) leaders[0]!.best.push(column);
  }
  return { suite, dimension, rows, notes: [...unequalNotes(rows), ...overlap] };
}

const equal = (ns: number[]) => ns.every((x) => x === ns[0]);
const counts = (rows: readonly MatrixRow[], n: (r: MatrixRow) => number) => rows.map((r) => `${r.value} ${n(r)}`).join(', ');

/** Why columns compared on unequal N mark no best (early stop keeps a case's variants level; bail, budget, an interruption or a filter may not). */
function unequalNotes(rows: readonly MatrixRow[]): string[] {
  return [
    ...(equal(rows.map((r) => r.cases)) ? [] : [`no best on cases passed: the values ran unequal case counts (${counts(rows, (r) => r.cases)})`]),
    ...(equal(rows.map(trialsOf)) ? [] : [`no best on pass rate, score, cost or latency: the values ran unequal trial counts (${counts(rows, trialsOf)})`]),
  ];
}
/** `no clear winner on pass rate: the 95% intervals of a and b overlap`, when they do. */
function overlapNote(rows: readonly MatrixRow[]): string[] {
  const ranked = rows.filter((r) => r.interval && r.passRate.rate !== null);
  if (ranked.length < 2) return [];
  const top = largest(ranked.map((r) => r.passRate.rate!));
  const leader = ranked.find((r) => r.passRate.rate === top)!;
  const overlapping = ranked.filter((r) => r !== leader && r.interval!.high >= leader.interval!.low && r.interval!.low <= leader.interval!.high);
  if (overlapping.length === 0) return [];
  const names = [leader, ...overlapping].map((r) => r.value);
  const list = names.length === 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return [`no clear winner on pass rate: the 95% intervals of ${list} overlap`];
}
