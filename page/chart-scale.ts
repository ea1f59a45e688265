/**
 * The top of a chart's value axis: the largest of `values` (nulls, runs without the value, skipped)
 * when it is above 0, else 1. A loop, not Math.max(...values): a spread passes every value as an
 * argument on the stack and overflows it past ~125,000 (a chart can have a point per run or row).
 */
export function axisTop(values: readonly (number | null)[]): number {
  let top = 0;
  for (const v of values) if (v !== null && v > top) top = v;
  return top > 0 ? top : 1;
}
