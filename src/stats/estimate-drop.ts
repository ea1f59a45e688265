import type { ComparedSide } from '../core/results-schema.js';

/**
 * How far a passAt/passHat case's estimate fell from the baseline (negative: it rose), when both
 * sides have the same estimate (`pass@3` on both). Another k or reducer is another quantity: then
 * only the verdict and score compare.
 */
export function estimateDrop(base: ComparedSide, head: ComparedSide): { drop: number; line: string } | undefined {
  const b = base.estimate;
  const h = head.estimate;
  if (!b || !h || b.name !== h.name) return undefined;
  return { drop: b.value - h.value, line: `${b.name} ${b.value.toFixed(3)} → ${h.value.toFixed(3)}` };
}
