/**
 * Float error in a mean or an estimate (1 - 0.95 is 0.050000000000000044): far below any difference
 * a score can make, far above what subtraction leaves.
 */
const ROUNDING = 1e-9;

/**
 * Whether a drop is larger than epsilon, as `--epsilon` promises: a drop of exactly epsilon (1.00 →
 * 0.95 at 0.05) is not, whichever way the subtraction rounds. Pure.
 */
export function beyondEpsilon(drop: number, epsilon: number): boolean {
  return drop - epsilon > ROUNDING;
}
