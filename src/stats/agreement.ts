/**
 * Agreement between a judge and human labels: pure functions over paired values, no I/O.
 * Undefined statistics (κ when both raters used one class only, a correlation of a constant) are
 * null, never a made-up 0 or 1.
 */

/** Counts of judge verdict against human verdict; "positive" is pass. */
export interface ConfusionMatrix {
  /** Judge pass, human pass. */
  truePositive: number;
  /** Judge pass, human fail. */
  falsePositive: number;
  /** Judge fail, human pass. */
  falseNegative: number;
  /** Judge fail, human fail. */
  trueNegative: number;
}

export interface VerdictPair {
  judge: boolean;
  human: boolean;
}

export function confusionMatrix(pairs: readonly VerdictPair[]): ConfusionMatrix {
  const m: ConfusionMatrix = { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
  for (const { judge, human } of pairs) {
    if (judge && human) m.truePositive++;
    else if (judge) m.falsePositive++;
    else if (human) m.falseNegative++;
    else m.trueNegative++;
  }
  return m;
}

const total = (m: ConfusionMatrix) => m.truePositive + m.falsePositive + m.falseNegative + m.trueNegative;

/** Fraction of pairs where judge and human agree; null on no pairs. */
export function accuracy(m: ConfusionMatrix): number | null {
  const n = total(m);
  return n === 0 ? null : (m.truePositive + m.trueNegative) / n;
}

/** Of the human passes, the fraction the judge passed (sensitivity); null when humans passed none. */
export function truePositiveRate(m: ConfusionMatrix): number | null {
  const p = m.truePositive + m.falseNegative;
  return p === 0 ? null : m.truePositive / p;
}

/** Of the human fails, the fraction the judge failed (specificity); null when humans failed none. */
export function trueNegativeRate(m: ConfusionMatrix): number | null {
  const n = m.trueNegative + m.falsePositive;
  return n === 0 ? null : m.trueNegative / n;
}

/**
 * Cohen's κ: (p_o − p_e) / (1 − p_e), agreement beyond what the two raters' pass rates give by
 * chance. Null when chance agreement is already 1 (both rated every pair the same one class).
 */
export function cohensKappa(m: ConfusionMatrix): number | null {
  const n = total(m);
  if (n === 0) return null;
  const po = (m.truePositive + m.trueNegative) / n;
  const judgePass = (m.truePositive + m.falsePositive) / n;
  const humanPass = (m.truePositive + m.falseNegative) / n;
  const pe = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  if (pe === 1) return null;
  return (po - pe) / (1 - pe);
}

export interface ScorePair {
  judge: number;
  human: number;
}

/** Mean of |judge − human|; null on no pairs. */
export function meanAbsoluteError(pairs: readonly ScorePair[]): number | null {
  if (pairs.length === 0) return null;
  return pairs.reduce((s, p) => s + Math.abs(p.judge - p.human), 0) / pairs.length;
}

/** Float slack so that 0.7 − 0.6 counts as within 0.1. */
const EPS = 1e-9;

/** Fraction of pairs with |judge − human| ≤ tolerance (0: exact agreement); null on no pairs. */
export function agreementWithin(pairs: readonly ScorePair[], tolerance: number): number | null {
  if (pairs.length === 0) return null;
  return pairs.filter((p) => Math.abs(p.judge - p.human) <= tolerance + EPS).length / pairs.length;
}

/** 1-based ranks, ties sharing the average of the ranks they span (1, 2.5, 2.5, 4). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Pearson correlation; null with fewer than 2 pairs or when either side is constant. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 2 || ys.length !== n) return null;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ: the Pearson correlation of the average ranks (exact with ties). */
export function spearman(pairs: readonly ScorePair[]): number | null {
  return pearson(averageRanks(pairs.map((p) => p.judge)), averageRanks(pairs.map((p) => p.human)));
}

export interface ScoredVerdict {
  /** The judge's score on 0..1. */
  score: number;
  human: boolean;
}

/** A threshold (pass when score ≥ it) and the κ it gives against the human verdicts. */
export interface ThresholdChoice {
  threshold: number;
  kappa: number;
}

/**
 * The threshold that maximises κ: every distinct judge score is a candidate (a threshold between
 * two adjacent scores splits the rows like the higher one). Among equal κ, the lowest wins. Null
 * when no candidate has a defined κ.
 */
export function bestThresholdByKappa(rows: readonly ScoredVerdict[]): ThresholdChoice | null {
  const candidates = [...new Set(rows.map((r) => r.score))].sort((a, b) => a - b);
  let best: ThresholdChoice | null = null;
  for (const threshold of candidates) {
    const kappa = cohensKappa(confusionMatrix(rows.map((r) => ({ judge: r.score >= threshold, human: r.human }))));
    if (kappa !== null && (best === null || kappa > best.kappa + EPS)) best = { threshold, kappa };
  }
  return best;
}
