/**
 * The top of the report charts' value axis (page/chart-scale.ts, the history page's line
 * charts and the run page's histogram): the largest value, over as many points as a dataset has rows.
 */
import { expect, it } from 'vitest';
import { axisTop } from '../../page/chart-scale.js';

it('is the largest value present, or 1 when none is above 0', () => {
  expect(axisTop([0.25, null, 0.75, 0.5])).toBe(0.75);
  expect(axisTop([null, 0, null])).toBe(1);
  expect(axisTop([])).toBe(1);
});

it('takes 300,000 points (a spread into Math.max overflows the stack there)', () => {
  const values = Array.from({ length: 300_000 }, (_, i) => (i === 123_456 ? 987 : i % 2 === 0 ? null : i % 500));
  expect(axisTop(values)).toBe(987);
});
