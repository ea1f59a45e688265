/**
 * How every reporter writes a passAt/passHat case's estimate: `pass@3 0.533 (min 0.5)`. No imports,
 * so the HTML report's page script (page/) bundles it too.
 */

/** `pass@3`, `pass^3`. */
export const reducerName = (kind: 'passAt' | 'passHat', k: number): string => `pass${kind === 'passAt' ? '@' : '^'}${k}`;

/** `pass@3 0.533 (min 0.5)`, or why there is no estimate (fewer than k trials ran to a verdict). */
export function reducerNote(r: { kind: 'passAt' | 'passHat'; k: number; min: number; trials: number; estimate?: number | undefined }): string {
  const name = reducerName(r.kind, r.k);
  if (r.estimate === undefined) return `${name} not estimated (${r.trials} of ${r.k} trials ran)`;
  return `${name} ${r.estimate.toFixed(3)} (min ${r.min})`;
}
