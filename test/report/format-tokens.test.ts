/** Token counts are written as en-US writes them, without the locale data that costs a run ~50 ms to load. */
import { describe, expect, it } from 'vitest';
import { formatTokens } from '../../src/report/format.js';

describe('formatTokens', () => {
  it('writes every count as toLocaleString("en-US") does', () => {
    const counts = [0, -0, 1, 12, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 987_654_321_012, -1234, -999_999, Number.MAX_SAFE_INTEGER, 1.5, 1234.5678, 1e21, NaN];
    for (let p = 1; p < 1e15; p *= 7) counts.push(p, p - 1, -p);
    for (const n of counts) expect(formatTokens(n)).toBe(n.toLocaleString('en-US'));
  });
});
