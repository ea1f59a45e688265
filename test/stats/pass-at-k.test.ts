/**
 * pass@k and pass^k against the binomial forms computed exactly here with BigInt (so the check does
 * not share the product form it tests), including N large enough that C(N, k) overflows a double.
 */
import { describe, expect, it } from 'vitest';
import { passAtK, passHatK, requiredForEstimate } from '../../src/stats/pass-at-k.js';

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
/** a/b as a double, exact to ~1e-15 for any size. */
const ratio = (a: bigint, b: bigint): number => Number((a * 10n ** 18n) / b) / 1e18;

describe('passAtK', () => {
  it('passAt 3 over 10 trials with 2 passes is 1 − C(8,3)/C(10,3) = 64/120 = 0.5333…', () => {
    expect(passAtK(10, 2, 3)).toBeCloseTo(1 - 56 / 120, 14);
    expect(passAtK(10, 2, 3)).toBeCloseTo(0.533333, 6);
  });

  it('matches 1 − C(N−c,k)/C(N,k) for every c and k up to N = 12', () => {
    for (let n = 1; n <= 12; n++) for (let k = 1; k <= n; k++) for (let c = 0; c <= n; c++) expect(passAtK(n, c, k)).toBeCloseTo(1 - ratio(choose(n - c, k), choose(n, k)), 12);
  });

  it('stays exact where C(N, k) overflows a double (N = 1200, k = 600)', () => {
    expect(Number(choose(1200, 600))).toBe(Infinity);
    for (const c of [1, 3, 10]) expect(passAtK(1200, c, 600)).toBeCloseTo(1 - ratio(choose(1200 - c, 600), choose(1200, 600)), 12);
  });

  it('is 1 once fewer than k trials failed, 0 with no pass, and k = 1 is the pass rate', () => {
    expect(passAtK(10, 8, 3)).toBe(1);
    expect(passAtK(10, 0, 3)).toBe(0);
    expect(passAtK(10, 4, 1)).toBeCloseTo(0.4, 14);
  });
});

describe('passHatK', () => {
  it('passHat 3 over 10 trials with 8 passes is C(8,3)/C(10,3) = 56/120', () => {
    expect(passHatK(10, 8, 3)).toBeCloseTo(56 / 120, 14);
  });

  it('matches C(c,k)/C(N,k) for every c and k up to N = 12, and for N = 1200, k = 600', () => {
    for (let n = 1; n <= 12; n++) for (let k = 1; k <= n; k++) for (let c = 0; c <= n; c++) expect(passHatK(n, c, k)).toBeCloseTo(ratio(choose(c, k), choose(n, k)), 12);
    for (const c of [1199, 1195]) expect(passHatK(1200, c, 600)).toBeCloseTo(ratio(choose(c, 600), choose(1200, 600)), 12);
  });

  it('is 0 below k passes and 1 when every trial passed', () => {
    expect(passHatK(10, 2, 3)).toBe(0);
    expect(passHatK(10, 10, 3)).toBe(1);
  });
});

describe('counts it refuses', () => {
  it('throws for N < k, c > N or k < 1', () => {
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
    expect(() => passHatK(5, 6, 3)).toThrow(RangeError);
    expect(() => passAtK(5, 1, 0)).toThrow(RangeError);
  });
});

describe('requiredForEstimate', () => {
  it('is the fewest passes whose estimate reaches min', () => {
    // pass@3 over 10: c = 1 → 0.3, c = 2 → 0.533 (≥ 0.5).
    expect(requiredForEstimate('passAt', 10, 3, 0.5)).toBe(2);
    expect(requiredForEstimate('passAt', 10, 3, 0.3)).toBe(1);
    // pass^3 over 10: c = 8 → 0.467, c = 9 → 0.7.
    expect(requiredForEstimate('passHat', 10, 3, 0.5)).toBe(9);
    expect(requiredForEstimate('passHat', 10, 3, 1)).toBe(10);
  });
});
