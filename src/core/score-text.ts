/**
 * A 0..1 score on the scale its author wrote: `scale: 10` reads `7/10` (7.5/10 between), as the
 * rubric asked the judge; the default 0..1 scale keeps two decimals. In core: a judged result's
 * message (judges/) and the reporters (report/) both say a score this way.
 */
export function formatScore(score: number, scale?: number): string {
  return scale === 10 ? `${Number((score * 10).toFixed(1))}/10` : score.toFixed(2);
}
