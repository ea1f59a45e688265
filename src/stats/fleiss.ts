/**
 * Fleiss' κ: agreement among a fixed number of raters who each put every item in one of k
 * categories, corrected for the agreement their category frequencies would give by chance.
 * `counts[i][j]` is how many raters put item i in category j; every row must sum to the same n ≥ 2.
 *
 *   P_i = Σ_j n_ij (n_ij − 1) / (n (n − 1))      agreement on item i
 *   P̄  = mean of P_i,  p_j = Σ_i n_ij / (N n),  P_e = Σ_j p_j²
 *   κ   = (P̄ − P_e) / (1 − P_e)
 *
 * Null when undefined: no items, or P_e = 1 (every rating in one category: nothing to agree beyond chance).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): number | null {
  const N = counts.length;
  if (N === 0) return null;
  const n = counts[0]!.reduce((a, b) => a + b, 0);
  if (n < 2) throw new Error("Fleiss' κ needs at least two raters per item");
  const k = counts[0]!.length;
  const totals = new Array<number>(k).fill(0);
  let agreement = 0;
  for (const row of counts) {
    if (row.length !== k || row.reduce((a, b) => a + b, 0) !== n) throw new Error("Fleiss' κ: every item needs the same raters and categories");
    agreement += row.reduce((s, nij) => s + nij * (nij - 1), 0) / (n * (n - 1));
    row.forEach((nij, j) => (totals[j]! += nij));
  }
  const pBar = agreement / N;
  const pE = totals.reduce((s, t) => s + (t / (N * n)) ** 2, 0);
  if (pE >= 1) return null;
  return (pBar - pE) / (1 - pE);
}
