/** Two-sided 95%: the standard normal quantile at 0.975. */
export const Z_95 = 1.959963984540054;

/** From this many trials on, a pass rate is reported with its interval (one trial says too little). */
export const MIN_TRIALS_FOR_INTERVAL = 2;

export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval for `successes` of `n` Bernoulli trials: unlike the normal
 * approximation it stays inside [0, 1] and is not degenerate at 0/n or n/n, which are the
 * common outcomes of a handful of trials.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): Interval {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`wilsonInterval: n must be a positive integer, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) throw new RangeError(`wilsonInterval: successes must be an integer from 0 to ${n}, got ${successes}`);
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0/n and n/n one end is exactly 0 or 1 in exact arithmetic; clamp the rounding.
  return { low: successes === 0 ? 0 : Math.max(0, center - half), high: successes === n ? 1 : Math.min(1, center + half) };
}
