import type { CaseResult } from '../../core/results-schema.js';
import type { Reducer } from '../../core/reducer-setting.js';
import { ESTIMATORS, requiredForEstimate } from '../../stats/pass-at-k.js';

/**
 * A `passAt` / `passHat` case's estimate over the trials that ran to a verdict, and the passes its
 * verdict needs: the fewest whose estimate reaches `min`, so the case passes exactly when the
 * estimate does. Below k such trials (a run cut short) there is no estimate, and the passes needed
 * over the planned trials stand, as for a `passRate` case.
 */
export function reducerOutcome(r: Reducer, passes: number, completed: number, planned: number): { required: number; reducer: NonNullable<CaseResult['reducer']> } {
  const estimable = completed >= r.k;
  return {
    required: requiredForEstimate(r.kind, estimable ? completed : planned, r.k, r.min),
    reducer: { kind: r.kind, k: r.k, min: r.min, trials: completed, ...(estimable ? { estimate: ESTIMATORS[r.kind](completed, passes, r.k) } : {}) },
  };
}

/**
 * Under passAt/passHat mixed trials are what the estimate measures, not a sign of trouble: such a case
 * is flaky only when its verdict turns on one trial, i.e. one pass fewer (a passing case) or one more
 * (a failing one) would flip it. `required` is the fewest passes whose estimate reaches `min`.
 */
export const verdictTurnsOnOneTrial = (passes: number, required: number): boolean => passes === required || passes === required - 1;
