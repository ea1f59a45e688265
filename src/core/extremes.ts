/**
 * The largest and smallest of `values`, as `Math.max(start, ...values)` and `Math.min(start, ...values)`
 * answer (NaN when one is NaN; `start`, by default -Infinity / Infinity, when there are none) without
 * passing every value as an argument on the stack, which throws past ~125,000 of them.
 */
export function largest(values: Iterable<number>, start = -Infinity): number {
  let top = start;
  for (const v of values) top = Math.max(top, v);
  return top;
}

/** See `largest`. */
export function smallest(values: Iterable<number>, start = Infinity): number {
  let low = start;
  for (const v of values) low = Math.min(low, v);
  return low;
}
