/** largest / smallest (src/core/extremes.ts): Math.max / Math.min's answers, over more values than a spread can pass. */
import { expect, it } from 'vitest';
import { largest, smallest } from '../../src/core/extremes.js';

it('answers as Math.max / Math.min do, with a start and with none', () => {
  expect([largest([3, 9, 1]), smallest([3, 9, 1])]).toEqual([9, 1]);
  expect([largest([], 0), smallest([], 1)]).toEqual([0, 1]);
  expect([largest([]), smallest([])]).toEqual([-Infinity, Infinity]);
  expect([largest([2], 5), smallest([2], -5)]).toEqual([5, -5]);
  expect(Number.isNaN(largest([1, NaN, 2]))).toBe(true);
});

it('takes 300,000 values without overflowing the stack', () => {
  const values = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 300_000);
  expect([largest(values), smallest(values)]).toEqual([299_999, 0]);
});
