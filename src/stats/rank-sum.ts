/**
 * One-sided Wilcoxon rank-sum (Mann–Whitney) test on two samples of trial scores: how likely head's
 * scores rank this low (or lower) among both sides' if the two runs shared one score law. Ties take
 * their mean rank. Small samples get the exact law of head's rank sum over every way to split the
 * pooled scores (ties kept); larger ones the normal law with the tie and continuity corrections.
 */
export function rankSumLowerP(base: readonly number[], head: readonly number[]): number {
  if (base.length === 0 || head.length === 0) return 1;
  const ranks = doubledMidranks([...base, ...head]);
  const headRanks = ranks.slice(base.length);
  const observed = headRanks.reduce((s, r) => s + r, 0);
  return Math.min(1, ranks.length <= EXACT_UP_TO ? exactLowerP(ranks, head.length, observed) : normalLowerP(ranks, head.length, observed));
}

/** The same test the other way: how likely head's scores rank this high by chance. */
export function rankSumHigherP(base: readonly number[], head: readonly number[]): number {
  return rankSumLowerP(head, base);
}

/** Pooled samples up to this size get the exact law (a few thousand sums at most). */
const EXACT_UP_TO = 40;

/** Each value's mean rank among all, doubled so that ties' half ranks stay whole numbers. */
function doubledMidranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]![0] === order[start]![0]) end++;
    // Ranks start + 1 … end + 1 share their mean; doubled: start + end + 2.
    for (let k = start; k <= end; k++) out[order[k]![1]] = start + end + 2;
    start = end + 1;
  }
  return out;
}

/** P(sum of k ranks drawn without order from `ranks` ≤ observed): counts of each (size, sum), by dynamic programming. */
function exactLowerP(ranks: readonly number[], k: number, observed: number): number {
  const maxSum = ranks.reduce((s, r) => s + r, 0);
  // ways[j][s]: the subsets of size j of the ranks seen so far whose sum is s (as a share of all, to stay finite).
  const ways: Float64Array[] = Array.from({ length: k + 1 }, () => new Float64Array(maxSum + 1));
  ways[0]![0] = 1;
  for (const r of ranks) {
    // Larger sizes first, so each rank joins a subset at most once (the 0/1 knapsack order).
    for (let j = k; j >= 1; j--) {
      const from = ways[j - 1]!;
      const to = ways[j]!;
      for (let s = maxSum; s >= r; s--) if (from[s - r]! > 0) to[s]! += from[s - r]!;
    }
  }
  const all = ways[k]!;
  let total = 0;
  let atMost = 0;
  for (let s = 0; s <= maxSum; s++) {
    total += all[s]!;
    if (s <= observed) atMost += all[s]!;
  }
  return atMost / total;
}

/** The normal approximation of the same probability, with the variance reduced for ties and half a rank of continuity. */
function normalLowerP(ranks: readonly number[], k: number, observed: number): number {
  const n = ranks.length;
  const m = n - k;
  const ties = new Map<number, number>();
  for (const r of ranks) ties.set(r, (ties.get(r) ?? 0) + 1);
  const tieTerm = [...ties.values()].reduce((s, t) => s + t ** 3 - t, 0);
  const variance = ((m * k) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return 1;
  const mean = (k * (n + 1)) / 2;
  // Sums are of doubled ranks.
  const z = (observed / 2 - mean + 0.5) / Math.sqrt(variance);
  return normalCdf(z);
}

/** Φ(z), from the complementary error function (Numerical Recipes' erfc, relative error below 1.2e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}
