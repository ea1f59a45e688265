import type { CaseResult } from '../core/results-schema.js';
import { reducerName } from '../core/reducer-setting.js';

type ReducerResult = NonNullable<CaseResult['reducer']>;

/** `0.533`: an estimate as every reporter writes it. */
export const formatEstimate = (estimate: number): string => estimate.toFixed(3);

/** `pass@3 0.533 (min 0.5)`, or why there is no estimate: what every reporter shows of a passAt/passHat case. */
export function reducerNote(r: ReducerResult): string {
  const name = reducerName(r.kind, r.k);
  if (r.estimate === undefined) return `${name} not estimated (${r.trials} of ${r.k} trials ran)`;
  return `${name} ${formatEstimate(r.estimate)} (min ${r.min})`;
}
