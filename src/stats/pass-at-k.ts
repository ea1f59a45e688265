import type { ReducerKind } from '../core/reducer-setting.js';

/**
 * Unbiased estimators of pass@k and pass^k from N trials of which c passed (Chen et al. 2021 for
 * pass@k). Both are products of k ratios, never binomials, so they are exact to a few ulps for any
 * N: C(1000, 500) overflows a double, the product does not.
 */

/** P(at least one of k trials drawn without replacement from the N passes): 1 − C(N−c, k)/C(N, k). */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n - c < k) return 1;
  // C(N−c, k)/C(N, k) = ∏_{i=N−c+1}^{N} (1 − k/i): c factors, each in [0, 1).
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** P(all k trials drawn without replacement from the N pass): C(c, k)/C(N, k). */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (c < k) return 0;
  // ∏_{i=0}^{k−1} (c − i)/(N − i): k factors, each in (0, 1].
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

export const ESTIMATORS: Record<ReducerKind, (n: number, c: number, k: number) => number> = { passAt: passAtK, passHat: passHatK };

/**
 * The fewest passes of N whose estimate reaches `min` (both estimators grow with c, and c = N gives 1,
 * so there is one). The tolerance keeps a threshold written as a decimal (0.5) from missing a value
 * the product computed a rounding below it.
 */
export function requiredForEstimate(kind: ReducerKind, n: number, k: number, min: number): number {
  for (let c = 0; c < n; c++) if (ESTIMATORS[kind](n, c, k) >= min - 1e-12) return c;
  return n;
}

function checkCounts(n: number, c: number, k: number): void {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k) && k >= 1 && c >= 0 && c <= n && n >= k)) {
    throw new RangeError(`pass@k needs integers 1 ≤ k ≤ N and 0 ≤ c ≤ N (N=${n}, c=${c}, k=${k})`);
  }
}
