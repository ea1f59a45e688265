import { wilsonInterval } from './wilson.js';

/**
 * Adaptive trials (`repeat: { min, max }`): the pure stopping rule. A case runs `min` trials, then
 * one more at a time, and stops once the Wilson interval of its pass rate lies wholly on one side of
 * its `passRate` threshold (`decided`), or at `max`; then its verdict is read as for any case
 * (passes ≥ ⌈passRate·N⌉ of the N it ran), which on a decided case is the side the interval took.
 *
 * Looking after every trial and stopping on the first decisive look inflates the error of one look:
 * with 95% per look, a case whose true rate sits on the threshold is "decided" on the wrong side far
 * more than 5% of the time. And a union bound (Bonferroni) is not safe with Wilson either: near 0 and 1
 * its one-sided error is above nominal. So the per-look z is calibrated exactly, per (min, max,
 * passRate): the smallest z for which the probability that any look decides the wrong side, at the
 * worst true rate (the threshold itself), is at most DECIDED_WRONG_RATE. It is computed over every
 * path of passes and fails (dynamic programming), not sampled.
 */

/** The most a decided verdict may be wrong, at the worst true pass rate: 2.5% (5% two-sided, one side is ever wrong). */
export const DECIDED_WRONG_RATE = 0.025;

/**
 * What the README states, and test/stats/adaptive.test.ts holds its 200-case simulation to: among all
 * verdicts of cases whose true pass rate is at least ADAPTIVE_CLEAR_MARGIN from the threshold
 * (`min` 3, `max` 30), the share that is wrong.
 */
export const CLEAR_WRONG_RATE = 0.025;
export const ADAPTIVE_CLEAR_MARGIN = 0.2;

export interface AdaptiveRepeat {
  min: number;
  max: number;
}

export type AdaptiveSide = 'above' | 'below';

/** Which side of `passRate` the interval of `passes` of `trials` lies wholly on, if either. */
export function adaptiveSide(passes: number, trials: number, passRate: number, z: number): AdaptiveSide | undefined {
  if (trials <= 0) return undefined;
  const { low, high } = wilsonInterval(passes, trials, z);
  if (low >= passRate) return 'above';
  if (high < passRate) return 'below';
  return undefined;
}

/** Why a case with `passes` of `trials` so far stops now (`decided`, `max`), or undefined to run one more. */
export function adaptiveStop(passes: number, trials: number, passRate: number, repeat: AdaptiveRepeat, z: number = adaptiveZ(repeat, passRate)): 'decided' | 'max' | undefined {
  if (trials < repeat.min) return undefined;
  if (adaptiveSide(passes, trials, passRate, z)) return 'decided';
  return trials >= repeat.max ? 'max' : undefined;
}

/**
 * At true rate `passRate`, the chance that the rule first decides `below` (wrong: the rate meets the
 * threshold) and the chance it first decides `above` (the limit of the wrong-decision chance for
 * true rates just under the threshold). Exact: the distribution of passes is carried look by look.
 */
export function wrongDecisionRisk(passRate: number, repeat: AdaptiveRepeat, z: number): number {
  const p = passRate;
  let dist = new Float64Array(1);
  dist[0] = 1;
  let below = 0;
  let above = 0;
  for (let n = 1; n <= repeat.max; n++) {
    const next = new Float64Array(n + 1);
    for (let k = 0; k < dist.length; k++) {
      const w = dist[k]!;
      if (w === 0) continue;
      next[k + 1]! += w * p;
      next[k]! += w * (1 - p);
    }
    if (n >= repeat.min && n < repeat.max) {
      for (let k = 0; k <= n; k++) {
        if (next[k] === 0) continue;
        const side = adaptiveSide(k, n, passRate, z);
        if (side === 'below') below += next[k]!;
        else if (side === 'above') above += next[k]!;
        if (side) next[k] = 0;
      }
    } else if (n === repeat.max) {
      // The last look decides by the interval too when it can: a decision there is as wrong as earlier ones.
      for (let k = 0; k <= n; k++) {
        const side = next[k] ? adaptiveSide(k, n, passRate, z) : undefined;
        if (side === 'below') below += next[k]!;
        else if (side === 'above') above += next[k]!;
      }
    }
    dist = next;
  }
  // At a threshold of 0 every rate meets it (`above` is never wrong); at 1 no rate is over it.
  return Math.max(passRate < 1 ? below : 0, passRate > 0 ? above : 0);
}

const calibrated = new Map<string, number>();

/** The smallest per-look z whose wrong-decision risk is at most DECIDED_WRONG_RATE for these bounds and threshold (memoized). */
export function adaptiveZ(repeat: AdaptiveRepeat, passRate: number): number {
  const key = `${repeat.min}/${repeat.max}/${passRate}`;
  const known = calibrated.get(key);
  if (known !== undefined) return known;
  const ok = (z: number) => wrongDecisionRisk(passRate, repeat, z) <= DECIDED_WRONG_RATE;
  let lo = 0.5;
  let hi = 8;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  // The risk is stepwise in z (counts are whole): `hi` is the side bisection kept as safe; check it is.
  while (!ok(hi)) hi += 0.01;
  calibrated.set(key, hi);
  return hi;
}
