/**
 * The Wilson score interval against values worked out here another way: its ends are the two
 * roots p of (p̂ − p)² = z²·p(1 − p)/n, i.e. of (1 + z²/n)·p² − (2p̂ + z²/n)·p + p̂² = 0, solved with
 * the quadratic formula; and against the published four-decimal values of the same intervals.
 */
import { describe, expect, it } from 'vitest';
import { wilsonInterval, Z_95 } from '../../src/stats/wilson.js';

function quadraticRoots(k: number, n: number): [number, number] {
  const z2 = 1.959963984540054 ** 2;
  const p = k / n;
  const a = 1 + z2 / n;
  const b = -(2 * p + z2 / n);
  const c = p * p;
  const d = Math.sqrt(b * b - 4 * a * c);
  return [(-b - d) / (2 * a), (-b + d) / (2 * a)];
}

// k/n → [low, high], to four decimals.
const TABLE: Array<[number, number, number, number]> = [
  [0, 5, 0, 0.4345],
  [3, 5, 0.2307, 0.8824],
  [5, 5, 0.5655, 1],
  [1, 1, 0.2065, 1],
  [47, 50, 0.8378, 0.9794],
];

describe('wilsonInterval', () => {
  it('uses the 97.5th percentile of the standard normal', () => {
    expect(Z_95).toBeCloseTo(1.96, 2);
  });

  for (const [k, n, low, high] of TABLE) {
    it(`${k}/${n} is [${low}, ${high}]`, () => {
      const got = wilsonInterval(k, n);
      expect(got.low).toBeCloseTo(low, 4);
      expect(got.high).toBeCloseTo(high, 4);
      const [rootLow, rootHigh] = quadraticRoots(k, n);
      expect(got.low).toBeCloseTo(rootLow, 6);
      expect(got.high).toBeCloseTo(rootHigh, 6);
    });
  }

  it('puts the ends exactly at 0 and 1 when every or no trial passed', () => {
    expect(wilsonInterval(0, 5).low).toBe(0);
    expect(wilsonInterval(5, 5).high).toBe(1);
    expect(wilsonInterval(1, 1).high).toBe(1);
  });

  it('narrows as trials accumulate at the same rate', () => {
    const small = wilsonInterval(3, 5);
    const large = wilsonInterval(300, 500);
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
    expect(large.low).toBeLessThan(0.6);
    expect(large.high).toBeGreaterThan(0.6);
  });

  it('rejects counts that are not a proportion', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
    expect(() => wilsonInterval(6, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 5)).toThrow(RangeError);
  });
});
