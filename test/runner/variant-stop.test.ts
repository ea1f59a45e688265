import { describe, expect, it } from 'vitest';
import { earlyStopsAt, variantGroup, type VariantProgress } from '../../src/runner/loop/variant-stop.js';

/** A variant of a 6-trial case that needs all 6 passes. */
const variant = (passes: number, ended: number): VariantProgress => ({ c: { repeat: 6, passRate: 1 }, required: 6, passes, ended });

describe('early stop across the variants of a case', () => {
  it('skips a trial only once every variant is settled, and then skips every later one for all', () => {
    const a = variant(0, 1); // failed once: settled
    const b = variant(0, 0); // nothing ended yet
    const g = variantGroup([a, b]);
    expect(earlyStopsAt(g, 1)).toBe(false); // b is open: index 1 runs, for both
    b.ended = 1; // b failed too: both settled
    expect(earlyStopsAt(g, 1)).toBe(false); // already decided to run: b's index 1 runs like a's
    expect(earlyStopsAt(g, 2)).toBe(true);
    expect(earlyStopsAt(g, 2)).toBe(true);
    expect(earlyStopsAt(g, 3)).toBe(true);
  });

  it('a case outside a matrix is a group of one: it stops once its own verdict is settled', () => {
    const only = variant(0, 0);
    const g = variantGroup([only]);
    expect(earlyStopsAt(g, 0)).toBe(false);
    only.ended = 1;
    expect(earlyStopsAt(g, 1)).toBe(true);
  });
});
